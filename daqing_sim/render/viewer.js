// The replay viewer's script: draws the state JSON of #replay-data (daqing_sim/render/viewer.py).
(function(){
const D = JSON.parse(document.getElementById('replay-data').textContent);
const S = D.states, N = S.length, SEATS = S[0].hands.length;
const W = 60, H = 80;
let cur = 0;
let hidden = true;
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
function draw(i){
  cur = Math.max(0, Math.min(N - 1, i));
  const s = S[cur];
  document.body.dataset.move = cur;
  document.body.dataset.step = s.step;
  document.body.dataset.hidden = hidden ? '1' : '0';
  document.getElementById('move').value = cur;
  document.getElementById('move-no').textContent = cur + ' / ' + (N - 1);
  document.getElementById('move-text').textContent = hidden ? s.text : s.public;
  document.getElementById('wall-left').textContent = s.wall_left;
  document.getElementById('bao').innerHTML = tile(s.bao, {back: !hidden, secret: !hidden, h: 40});
  // the discard just made, or the one won on, is outlined
  const lastPond = s.event === 'discard' ? s.seat : (s.win && s.win.method === 'deal_in' ? s.win.from : -1);
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
    const badge = sec.querySelector('.badge.ready');
    badge.hidden = !s.ready[p];
    const sees = sec.querySelector('.sees-bao');
    sees.hidden = !s.ready[p];
    sees.innerHTML = 'sees the bao ' + tile(s.bao, {h: 22, back: !hidden, secret: !hidden});
  }
  const offers = document.getElementById('offers');
  offers.innerHTML = s.offers.map(o => '<li data-seat="' + o.seat + '">seat ' + o.seat + ' may ' +
    o.options.join(' / ') + ' ' + tile(o.tile, {h: 22}) + ': <b>' + o.action + '</b></li>').join('') || '<li>none</li>';
  if (!hidden) offers.innerHTML = '<li>hidden (show hidden to see them)</li>';
  const win = document.getElementById('win');
  win.hidden = !s.win;
  if (s.win && D.settlement) {
    const st = D.settlement;
    let rows = '';
    for (let p = 0; p < SEATS; p++) {
      const f = st.fans[p];
      rows += '<tr data-seat="' + p + '"><td>seat ' + p + '</td><td>' + (st.payments[p] > 0 ? '+' : '') + st.payments[p] +
        '</td><td>' + (f ? f.join(', ') || '-' : (p === st.winner ? 'winner' : '')) + '</td></tr>';
    }
    const drew = s.win.drawn !== null && s.win.drawn !== s.win.tile ?
      '<div>drew ' + tile(s.win.drawn, {h: 26}) + ' (the bao), wild as ' + D.names[s.win.tile] + '</div>' : '';
    win.innerHTML = '<h3>win</h3><div>' + s.text + ' ' + tile(s.win.tile, {h: 30, marks: ['highlight']}) + '</div>' + drew +
      '<div>' + (st.big ? 'big win (夹)' : 'small win') + ', ' + (s.win.wait || 'no') + ' wait, bao: ' + s.win.bao_kind +
      (st.pays_all ? ', 包庄: the discarder pays all' : '') + '</div>' +
      '<table><tr><th>seat</th><th>pays</th><th>fans</th></tr>' + rows + '</table>';
  }
  if (location.hash !== '#move=' + cur + (hidden ? '' : '&hidden=0'))
    history.replaceState(null, '', '#move=' + cur + (hidden ? '' : '&hidden=0'));
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
fromHash();
})();
