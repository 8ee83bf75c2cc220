// The replay viewer's script: draws the state JSON of #replay-data (daqing_sim/render/viewer.py).
// Every CJK character is drawn as a <use> of its glyph symbol (cjk(), as render/labels.py).
(function(){
const D = JSON.parse(document.getElementById('replay-data').textContent);
const S = D.states, N = S.length, SEATS = S[0].hands.length;
const W = 60, H = 80, EM = 1000;
let cur = 0;
let hidden = true;
// a run of CJK characters, with an opening bracket before it and a closing mark after it kept on
// its line (an inline-block would otherwise let the line break between them)
const RUN = /([(\[]?)([\u3400-\u9fff\uf900-\ufaff]+)([)\]:;,.]?)/g;
function esc(s){
  return String(s).replace(/[&<>"]/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]));
}
function glyphs(run){
  const cs = Array.from(run);
  return '<svg class="cjk" role="img" aria-label="' + run + '" style="width:' + cs.length + 'em" viewBox="0 0 ' +
    cs.length * EM + ' ' + EM + '" fill="currentColor">' + cs.map((c, i) => '<use href="#cjk-' +
    c.codePointAt(0).toString(16) + '" x="' + i * EM + '" width="' + EM + '" height="' + EM + '"/>').join('') + '</svg>';
}
function cjk(s){
  s = String(s);
  let out = '', pos = 0, m;
  RUN.lastIndex = 0;
  while ((m = RUN.exec(s)) !== null) {
    const run = glyphs(m[2]);
    out += esc(s.slice(pos, m.index)) + (m[1] || m[3] ? '<span class="nw">' + esc(m[1]) + run + esc(m[3]) + '</span>' : run);
    pos = m.index + m[0].length;
  }
  return out + esc(s.slice(pos));
}
function tile(t, o){
  o = o || {};
  const h = o.h || 34, w = h * W / H, side = !!o.side, back = !!o.back;
  const marks = o.marks || [];
  const uses = '<use href="#tile-' + (back ? 'back' : t) + '"/>' +
    marks.map(m => '<use href="#mark-' + m + '"/>').join('');
  const cls = ['tile'].concat(side ? ['sideways'] : [], back ? ['back'] : [], marks, o.cls || []).join(' ');
  const data = back && o.secret ? '' : ' data-tile="' + t + '"';
  const title = '<title>' + (back ? 'face down' : D.names[t]) + '</title>';
  if (side) return '<svg class="' + cls + '"' + data + ' width="' + h + '" height="' + w +
    '" viewBox="0 0 ' + H + ' ' + W + '">' + title + '<g transform="translate(0 ' + W + ') rotate(-90)"><svg width="' + W +
    '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H + '">' + uses + '</svg></g></svg>';
  return '<svg class="' + cls + '"' + data + ' width="' + w + '" height="' + h + '" viewBox="0 0 ' + W + ' ' + H + '">' +
    title + uses + '</svg>';
}
function meld(m, owner){
  const k = m.kind, t = m.tile;
  let ts = k === 'chi' ? [t, t + 1, t + 2] : (k === 'peng' ? [t, t, t] : [t, t, t, t]);
  let body;
  if (k === 'concealed_kong') {
    body = ts.map((x, i) => tile(x, {back: i === 0 || i === 3 || !hidden, secret: !hidden, h: 34})).join('');
  } else {
    const rest = ts.slice(); rest.splice(rest.indexOf(m.claimed), 1);
    if (k === 'added_kong') rest.length = 2;
    let side = tile(m.claimed, {side: true, h: 34});
    if (k === 'added_kong') side = '<span class="stack">' + tile(m.claimed, {side: true, h: 34}) + side + '</span>';
    const off = SEATS === 2 ? 2 : (m.from - owner + SEATS) % SEATS;
    const pos = off === 3 ? 0 : (off === 2 ? 1 : rest.length);
    const parts = rest.map(x => tile(x, {h: 34}));
    parts.splice(pos, 0, side);
    body = parts.join('');
  }
  return '<span class="meld" data-kind="' + k + '" data-tile="' + t + '" data-seat="' + owner + '">' + body + '</span>';
}
function sign(v){ return (v > 0 ? '+' : '') + v.toLocaleString('en-US'); }
function winDaqing(s, st){
  let rows = '';
  for (let p = 0; p < SEATS; p++) {
    const f = st.fans[p];
    rows += '<tr data-seat="' + p + '"><td>seat ' + p + '</td><td>' + sign(st.payments[p]) +
      '</td><td>' + esc(f ? f.join(', ') || '-' : (p === st.winner ? 'winner' : '')) + '</td></tr>';
  }
  const drew = s.win.drawn !== null && s.win.drawn !== s.win.tile ?
    '<div>drew ' + tile(s.win.drawn, {h: 26}) + '<span>(the bao), wild as ' + cjk(D.names[s.win.tile]) + '</span></div>' : '';
  return drew + '<div><span>' + cjk(st.big ? 'big win (夹)' : 'small win') + ', ' + esc(s.win.wait || 'no') +
    ' wait, bao: ' + esc(s.win.bao_kind) + (st.pays_all ? cjk(', 包庄: the discarder pays all') : '') + '</span></div>' +
    '<table><tr><th>seat</th><th>pays</th><th>fans</th></tr>' + rows + '</table>';
}
function winFans(s, st){
  const fans = st.fans.map(f => '<tr class="fan"><td>' + cjk(f[0]) + '</td><td>' + f[1] + '</td></tr>').join('');
  let pays = '';
  for (let p = 0; p < SEATS; p++)
    pays += '<tr data-seat="' + p + '"><td>seat ' + p + (p === st.winner ? ' (winner)' : '') + '</td><td>' +
      sign(st.payments[p]) + '</td></tr>';
  let notes = '';
  if (st.mutual_payer >= 0) notes += '<div class="note"><span>' + cjk('互包: seat ' + st.mutual_payer + ', bound to the winner, pays for everyone') + '</span></div>';
  if (st.burn_rounds > 0) notes += '<div class="note"><span>' + cjk('烧庄: ' + st.burn_rounds + ' round(s), the dealer pays each other seat') + '</span></div>';
  return '<div><span>' + esc(st.how) + '</span></div><table class="fans"><tr><th>' + cjk('fans 番') + '</th><th>F</th></tr>' + fans +
    '<tr class="total"><td>F = ' + st.fan_total + ', value</td><td>' + st.value.toLocaleString('en-US') + '</td></tr></table>' +
    notes + '<table class="pays"><tr><th>seat</th><th>pays</th></tr>' + pays + '</table>';
}
function draw(i){
  cur = Math.max(0, Math.min(N - 1, i));
  const s = S[cur];
  document.body.dataset.move = cur;
  document.body.dataset.step = s.step;
  document.body.dataset.hidden = hidden ? '1' : '0';
  document.getElementById('move').value = cur;
  document.getElementById('move-no').textContent = cur + ' / ' + (N - 1);
  document.getElementById('move-text').innerHTML = '<span>' + cjk(hidden ? s.text : s.public) + '</span>';
  document.getElementById('wall-left').textContent = s.wall_left;
  const bao = document.getElementById('bao');
  if (bao) bao.innerHTML = tile(s.bao, {back: !hidden, secret: !hidden, h: 40});
  const burn = document.getElementById('burn');
  if (burn) burn.innerHTML = s.burn > 0 ? cjk('round ' + s.burn + ': the dealer owes each other seat if the deal is won') : 'none';
  const flowers = document.getElementById('flowers');
  if (flowers) flowers.innerHTML = s.flowers.map(f => tile(f, {h: 34})).join('') || 'none';
  const extra = document.getElementById('extra');
  if (extra) extra.innerHTML = s.extra.map(x => '<span class="extra-draw" data-seat="' + x.seat + '">' +
    tile(x.tile, {h: 30, marks: x.won ? ['highlight'] : [], cls: x.won ? [] : ['aside']}) + '</span>').join('') || 'none';
  // the discard just made, or the one won on, is outlined
  const lastPond = s.event === 'discard' ? s.seat :
    (s.win && s.win.method === 'deal_in' && !s.win.robbed ? s.win.from : -1);
  for (let p = 0; p < SEATS; p++) {
    const sec = document.querySelector('.seat[data-seat="' + p + '"]');
    sec.classList.toggle('to-move', s.seat === p);
    sec.classList.toggle('winner', !!(s.win && s.win.seat === p));
    const hand = sec.querySelector('.hand');
    const conc = s.hands[p].map(t => tile(t, {back: !hidden, secret: !hidden})).join('');
    const dr = s.drawn[p] === null ? '' : tile(s.drawn[p], {back: !hidden, secret: !hidden});
    const n = s.hands[p].length + (s.drawn[p] === null ? 0 : 1);
    hand.innerHTML = '<span class="concealed">' + conc + '</span>' +
      (dr ? '<span class="drawn-tile">' + dr + '</span>' : '') +
      '<span class="melds">' + s.melds[p].map(m => meld(m, p)).join('') + '</span>' +
      '<span class="hidden-count">' + n + ' concealed</span>';
    const pond = sec.querySelector('.pond');
    pond.innerHTML = s.ponds[p].map((d, j) => tile(d.tile, {
      h: 30, side: d.declared,
      marks: ['drawn', 'declared', 'claimed'].filter(m => d[m]),
      cls: (p === lastPond && j === s.ponds[p].length - 1) ? ['last'] : []})).join('');
    sec.querySelector('.badge.ready').hidden = !s.ready[p];
    const sees = sec.querySelector('.sees-bao');
    if (sees) {
      sees.hidden = !s.ready[p];
      sees.innerHTML = 'sees the bao ' + tile(s.bao, {h: 22, back: !hidden, secret: !hidden});
    }
    const bound = sec.querySelector('.badge.bound');
    if (bound) {
      const pair = s.bound.find(b => b.includes(p));
      bound.hidden = !pair;
      bound.innerHTML = pair ? cjk('互包 with seat ' + (pair[0] === p ? pair[1] : pair[0])) : '';
    }
  }
  const offers = document.getElementById('offers');
  offers.innerHTML = s.offers.map(o => '<li data-seat="' + o.seat + '">seat ' + o.seat + ' may ' +
    esc(o.options.join(' / ')) + ' ' + tile(o.tile, {h: 22}) + ': <b>' + esc(o.action) + '</b></li>').join('') || '<li>none</li>';
  if (!hidden) offers.innerHTML = '<li>hidden (show hidden to see them)</li>';
  const win = document.getElementById('win');
  win.hidden = !s.win;
  if (s.win && D.settlement) {
    const st = D.settlement;
    win.innerHTML = '<h3>' + cjk('win 和') + '</h3><div><span>' + cjk(s.text) + '</span> ' + tile(s.win.tile, {h: 30, marks: ['highlight']}) +
      '</div>' + (st.value === undefined ? winDaqing(s, st) : winFans(s, st));
  }
  if (R) drawReview();
  if (location.hash !== '#move=' + cur + (hidden ? '' : '&hidden=0'))
    history.replaceState(null, '', '#move=' + cur + (hidden ? '' : '&hidden=0'));
}
// a review of one seat's decisions (daqing_sim/reviews/viewer.py): marked on the move before each
const R = D.review;
function moveTiles(ts){ return ts.length ? ts.map(t => tile(t, {h: 30})).join('') : ''; }
function lossText(m){
  return 'loses ' + m.loss.toFixed(2) + ' [' + m.lo.toFixed(2) + ', ' + m.hi.toFixed(2) + '] ' + R.unit;
}
function decisionHtml(m){
  const same = m.chosen === m.best;
  return '<div class="review-decision' + (m.bad ? ' bad' : '') + '" data-decision="' + m.decision + '">' +
    '<div><span>' + cjk('decision ' + m.decision + ' (' + m.kind + '): played ' + m.chosen) + '</span>' +
    '<span class="chosen">' + moveTiles(m.chosen_tiles) + '</span></div>' +
    (same ? '<div><span>the best move found (no loss)</span></div>' : m.loss <= 0 ?
      '<div><span>' + cjk('best on half the worlds: ' + m.best) + '</span><span class="best">' + moveTiles(m.best_tiles) +
      '</span></div><div><span>' + esc('no better on the other half: no loss (' + m.loss.toFixed(2) + ' [' +
      m.lo.toFixed(2) + ', ' + m.hi.toFixed(2) + '])') + '</span></div>' :
      '<div><span>' + cjk('better: ' + m.best) + '</span><span class="best">' + moveTiles(m.best_tiles) + '</span></div>' +
      '<div><span>' + esc(lossText(m)) + '</span></div>') + '</div>';
}
function markLevel(m){ return m.bad ? 'bad' : (m.loss > 0 ? 'loss' : 'ok'); }
function initReview(){
  if (!R) return;
  document.getElementById('review-summary').innerHTML = R.summary.map(l => '<div>' + cjk(l) + '</div>').join('');
  const byNo = {};
  R.marks.forEach(m => { byNo[m.decision] = m; });
  document.getElementById('mistakes').innerHTML = R.mistakes.map(k => {
    const m = byNo[k];
    return '<li><a class="mistake" href="#move=' + m.move + '" data-move="' + m.move + '" data-decision="' + k + '">' +
      cjk('move ' + m.move + ', ' + m.kind + ': played ' + m.chosen + ', better ' + m.best) + '</a> ' + esc(lossText(m)) + '</li>';
  }).join('') || '<li>none: every move was the best found</li>';
  document.getElementById('review-strip').innerHTML = R.marks.map(m =>
    '<a class="review-mark ' + markLevel(m) + '" href="#move=' + m.move + '" data-move="' + m.move +
    '" style="left:' + (N > 1 ? 100 * m.move / (N - 1) : 0) + '%" title="move ' + m.move + ': ' +
    esc(m.kind) + ', loss ' + m.loss.toFixed(2) + '"></a>').join('');
  document.querySelectorAll('a.mistake, a.review-mark').forEach(a => a.addEventListener('click', e => {
    e.preventDefault(); draw(parseInt(a.dataset.move, 10));
  }));
}
function drawReview(){
  const here = R.marks.filter(m => m.move === cur);
  document.getElementById('review-note').innerHTML = here.length ? here.map(decisionHtml).join('') :
    '<div class="note">no decision of seat ' + R.seat + ' at this move</div>';
  document.querySelectorAll('.review-mark').forEach(a => a.classList.toggle('current', parseInt(a.dataset.move, 10) === cur));
}
function fromHash(){
  const m = /move=(\d+)/.exec(location.hash), h = /hidden=(\d)/.exec(location.hash);
  if (h) { hidden = h[1] !== '0'; document.getElementById('show-hidden').checked = hidden; }
  draw(m ? parseInt(m[1], 10) : 0);
}
const slider = document.getElementById('move');
slider.max = N - 1;
slider.addEventListener('input', () => draw(parseInt(slider.value, 10)));
document.getElementById('first').onclick = () => draw(0);
document.getElementById('prev').onclick = () => draw(cur - 1);
document.getElementById('next').onclick = () => draw(cur + 1);
document.getElementById('last').onclick = () => draw(N - 1);
document.getElementById('show-hidden').addEventListener('change', e => { hidden = e.target.checked; draw(cur); });
document.addEventListener('keydown', e => {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'checkbox') return;
  if (e.key === 'ArrowRight') draw(cur + 1); else if (e.key === 'ArrowLeft') draw(cur - 1);
  else if (e.key === 'Home') draw(0); else if (e.key === 'End') draw(N - 1);
});
window.addEventListener('hashchange', fromHash);
initReview();
fromHash();
})();
