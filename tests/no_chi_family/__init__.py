"""A test-only rule family (issue 35, item 4): Daqing without chis (不吃), one folder, registered
by one line (``FAMILY_PACKAGES["no_chi"] = "no_chi_family"``). Its spec, deal steps, frame and
metrics reuse Daqing's code by import; only its claim step and its state type are its own.
Played end to end by ``tests/test_one_folder_family.py``."""
