// clips studio: the presenter's player (window.presenter) driven by the studio's server.  The server tells
// the page over server-sent events what it knows (`state`: each clip's render state, its narration rows and
// what is wrong, where), how a render goes (`progress`) and when a clip rendered again (`clip`: its new deck
// entry and the first beat that changed).  The page swaps the clip in, seeks to that beat and plays it; the
// moment it can ("ready") is logged in studio.readyLog, for the tests and `make bench`.
(() => {
  'use strict';

  const P = window.presenter;
  const $ = (sel, root = document) => root.querySelector(sel);
  const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch]));
  const pad2 = (n) => String(n).padStart(2, '0');
  const app = $('#app'), nav = $('#st-nav'), panel = $('#st-panel'), banner = $('#st-banner');
  app.classList.add('studio');
  document.body.classList.add('studio-page');

  const ST = {
    status: null, // the server's last `state`
    readyLog: [], // {clip, rev, from, at, playing}: a render the page has loaded and seeked, ready to play
    edits: [], // {clip, key, field, at, ok, error}: what the page wrote
    connected: false,
    shownCi: -1, rowsSig: '',
  };
  window.studio = ST;

  const clipName = (ci = P.state.ci) => P.CLIPS[ci].name;
  const problems = () => (ST.status ? ST.status.problems : []);

  // ------------------------------------------------------------------ the server's events
  const es = new EventSource('events');
  es.addEventListener('open', () => { ST.connected = true; renderBanner(); });
  es.addEventListener('error', () => { ST.connected = false; renderBanner(); });
  es.addEventListener('state', (e) => { ST.status = JSON.parse(e.data); renderAll(); });
  es.addEventListener('progress', (e) => {
    const d = JSON.parse(e.data);
    if (ST.status && ST.status.clips[d.clip]) { ST.status.clips[d.clip].played = d.played; renderNav(); renderState(); }
  });
  es.addEventListener('clip', (e) => { onClip(JSON.parse(e.data)); });

  const queue = [];
  let busy = false;
  function onClip(d) { queue.push(d); if (!busy) drain(); }
  async function drain() { // one swap at a time, in the order the renders finished
    busy = true;
    while (queue.length) {
      try { await swap(queue.shift()); } catch (err) { console.warn(err); }
    }
    busy = false;
  }

  async function swap(d) {
    const clip = d.clip, wasCurrent = P.CLIPS[P.state.ci].number === clip.number;
    const wasPending = !!P.CLIPS[P.indexOf(clip.number)].pending;
    const ci = P.update(clip);
    if (ci < 0) return;
    const k = Math.max(0, Math.min(clip.beats.length - 1, d.from || 0));
    // an edit of this clip plays it from the beat it changed; any edit that re-rendered the clip on screen too
    const play = !d.first && (d.edited || (wasCurrent && d.caused));
    if (!play) {
      if (wasCurrent && (wasPending || P.state.phase !== 'playing')) {
        const ok = await P.show(ci, wasPending ? 0 : Math.min(P.state.frame, clip.frames - 1));
        if (ok) logReady(clip, k, false);
      }
      renderAll();
      return;
    }
    const ok = await P.show(ci, clip.beats[k].b);
    if (!ok) return;
    logReady(clip, k, true);
    renderAll();
    P.playTo(k);
  }

  function logReady(clip, k, playing) {
    const entry = { clip: clip.name, rev: clip.rev, from: k, key: clip.beats[k] ? clip.beats[k].key : '', at: Date.now(), playing };
    ST.readyLog.push(entry);
    window.dispatchEvent(new CustomEvent('studio:ready', { detail: entry }));
  }

  // ------------------------------------------------------------------ the clip on screen, told to the server
  let focused = '';
  function tellFocus() {
    const name = clipName();
    if (name === focused) return;
    focused = name;
    fetch('api/focus', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ clip: name }) }).catch(() => {});
  }
  setInterval(() => {
    tellFocus();
    if (P.state.ci !== ST.shownCi) renderAll();
    markNow();
  }, 200);

  // ------------------------------------------------------------------ edits
  const timers = new Map();
  function fieldKey(ta) { return `${ta.dataset.clip}|${ta.dataset.key}|${ta.dataset.field}`; }

  async function send(ta) {
    clearTimeout(timers.get(fieldKey(ta)));
    const text = ta.value;
    if (text === ta.dataset.saved) return;
    const body = { clip: ta.dataset.clip, key: ta.dataset.key, field: ta.dataset.field, text, expect: ta.dataset.saved };
    const entry = { clip: body.clip, key: body.key, field: body.field, at: Date.now(), ok: false, error: '' };
    ST.edits.push(entry);
    let res;
    try {
      res = await fetch('api/edit', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const out = await res.json();
      entry.ok = !!out.ok;
      entry.error = out.error || '';
    } catch (err) {
      entry.error = `The studio did not answer (${err.message}); is \`clips studio\` still running?`;
    }
    const box = ta.closest('.st-beat');
    const err = box && box.querySelector(`.st-err[data-for="${ta.dataset.field}"]`);
    if (entry.ok) {
      ta.dataset.saved = text;
      ta.dataset.local = '';
    } else if (err) {
      err.textContent = entry.error;
      ta.setAttribute('aria-invalid', 'true');
      if (/changed in the file/.test(entry.error)) { ta.dataset.local = ''; ta.dataset.saved = ''; renderPanel(true); }
    }
  }

  const fit = (ta) => { ta.style.height = 'auto'; ta.style.height = `${ta.scrollHeight + 2}px`; };
  panel.addEventListener('input', (e) => {
    const ta = e.target.closest('textarea');
    if (!ta) return;
    fit(ta);
    ta.dataset.local = '1';
    clearTimeout(timers.get(fieldKey(ta)));
    timers.set(fieldKey(ta), setTimeout(() => send(ta), 800));
  });
  panel.addEventListener('change', (e) => { const ta = e.target.closest('textarea'); if (ta) send(ta); });
  panel.addEventListener('keydown', (e) => {
    const ta = e.target.closest('textarea');
    if (!ta) return;
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || !e.shiftKey)) { e.preventDefault(); send(ta); }
    if (e.key === 'Escape') { ta.value = ta.dataset.saved || ''; ta.dataset.local = ''; ta.blur(); }
  });
  panel.addEventListener('click', (e) => {
    const b = e.target.closest('button.play');
    if (!b) return;
    b.blur();
    const c = P.CLIPS[P.state.ci], k = c.beats.findIndex((x) => x.key === b.dataset.key);
    if (k >= 0) P.show(P.state.ci, c.beats[k].b).then((ok) => { if (ok) P.playTo(k); });
  });
  nav.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-ci]');
    if (!b) return;
    b.blur();
    P.jump(Number(b.dataset.ci));
  });

  // ------------------------------------------------------------------ drawing
  function renderAll() { renderBanner(); renderNav(); renderPanel(); renderState(); renderHint(); }

  function renderBanner() {
    const shared = problems().filter((p) => p.scope === 'config' || p.scope === 'code');
    const lines = shared.map((p) => `<div><b>${p.scope === 'config' ? 'Lecture config' : 'Code'}</b>${esc(p.message)}</div>`);
    if (!ST.connected && ST.status) lines.push('<div><b>Studio</b>The connection to `clips studio` was lost; reconnecting…</div>');
    if (ST.status && ST.status.restarting) lines.push('<div><b>Code</b>The code changed: the warm workers start again with it…</div>');
    const html = lines.join('');
    if (banner.innerHTML !== html) banner.innerHTML = html;
    banner.hidden = !html;
    const shared2 = shared.length ? 'The last good render keeps playing until this is fixed.' : '';
    banner.title = shared2;
  }

  function clipStatus(name) {
    const s = ST.status && ST.status.clips[name];
    if (!s) return { text: '', cls: '' };
    if (s.state === 'rendering') return { text: `rendering${s.expected ? ` ${Math.min(s.played, s.expected)}/${s.expected}` : s.played ? ` ${s.played}` : ''}`, cls: 'rendering' };
    if (s.state === 'error') return { text: 'needs a fix', cls: 'error' };
    if (s.state === 'queued') return { text: 'waiting to render', cls: '' };
    return { text: s.seconds ? `rendered in ${s.seconds.toFixed(1)} s` : 'rendered', cls: 'ready' };
  }

  function renderNav() {
    $('.st-heading', nav).textContent = P.DECK.heading || 'Studio';
    $('.st-quality', nav).textContent = ST.status ? `preview quality ${ST.status.quality} · ${P.CLIPS.length} clip${P.CLIPS.length === 1 ? '' : 's'}` : '';
    const list = $('.st-list', nav);
    if (list.children.length !== P.CLIPS.length) {
      list.innerHTML = P.CLIPS.map((c, i) => `<li><button type="button" data-ci="${i}"><span class="n">${pad2(c.number)}</span>
        <span class="t">${esc(c.title)}</span><span class="s"></span></button></li>`).join('');
    }
    [...list.querySelectorAll('button')].forEach((b, i) => {
      const st = clipStatus(P.CLIPS[i].name), s = $('.s', b);
      if (s.textContent !== st.text) s.textContent = st.text;
      s.className = `s ${st.cls}`;
      b.setAttribute('aria-current', i === P.state.ci ? 'true' : 'false');
    });
  }

  function renderState() {
    const name = clipName(), st = clipStatus(name), c = P.CLIPS[P.state.ci];
    const s = $('.st-state', panel);
    const text = `${st.text}${c.pending ? '' : ` · ${c.beats.length} beats · ${c.duration.toFixed(1)} s`}`;
    if (s.textContent !== text) s.textContent = text;
  }

  function renderHint() {
    const c = P.CLIPS[P.state.ci], hint = $('#ready .hint');
    if (!hint) return;
    if (c.pending) {
      const clipProblem = problems().some((p) => p.clip === c.name || p.scope === 'config' || p.scope === 'code');
      hint.textContent = clipProblem ? 'Not rendered: fix what the studio shows, and it renders' : 'Rendering this clip for the first time…';
    } else if (hint.dataset.studio !== 'plain') {
      hint.innerHTML = '<kbd>→</kbd> plays the clip, beat by beat';
      hint.dataset.studio = 'plain';
      return;
    }
    hint.dataset.studio = c.pending ? 'pending' : 'plain';
  }

  const FIELD_LABEL = { caption: 'Caption', describe: 'Description', say: 'Spoken as' };

  function renderPanel(force = false) {
    const ci = P.state.ci, c = P.CLIPS[ci], name = c.name;
    $('.st-clip .n', panel).textContent = pad2(c.number);
    $('.st-clip .t', panel).textContent = c.title;
    const mine = problems().filter((p) => p.clip === name);
    const clipProb = mine.filter((p) => p.scope === 'clip');
    const cp = $('#st-clip-problem');
    cp.textContent = clipProb.map((p) => p.message).join('\n');
    cp.hidden = !clipProb.length;
    const rows = (ST.status && ST.status.clips[name] && ST.status.clips[name].rows) || [];
    const list = $('.st-beats', panel);
    const sig = `${ci}|${rows.map((r) => r.key).join(',')}`;
    if (force || sig !== ST.rowsSig || ci !== ST.shownCi) {
      ST.rowsSig = sig;
      ST.shownCi = ci;
      list.innerHTML = rows.map((r, i) => `<li class="st-beat" data-key="${esc(r.key)}">
        <div class="head"><span class="k">${i + 1}</span><code>${esc(r.key)}</code><span class="tag"></span>
          <button type="button" class="play" data-key="${esc(r.key)}" aria-label="Play beat ${esc(r.key)}">Play</button></div>
        ${['caption', 'describe', 'say'].map((f) => `
        <label for="st-${ci}-${i}-${f}">${FIELD_LABEL[f]}</label>
        <textarea id="st-${ci}-${i}-${f}" rows="${f === 'caption' ? 2 : 1}" data-clip="${esc(name)}" data-key="${esc(r.key)}" data-field="${f}"
          aria-describedby="st-${ci}-${i}-${f}-err"></textarea>
        <p class="st-err" id="st-${ci}-${i}-${f}-err" data-for="${f}" role="alert"></p>
        ${f === 'caption' ? '<p class="shown"></p>' : ''}`).join('')}
      </li>`).join('');
      requestAnimationFrame(() => list.querySelectorAll('textarea').forEach(fit));
    }
    rows.forEach((r) => {
      const box = list.querySelector(`.st-beat[data-key="${CSS.escape(r.key)}"]`);
      if (!box) return;
      box.classList.toggle('unused', !r.rendered);
      $('.tag', box).textContent = r.rendered ? '' : 'not in the last render';
      for (const f of ['caption', 'describe', 'say']) {
        const ta = $(`textarea[data-field="${f}"]`, box);
        const value = r[f] || '';
        // what the lecturer is typing stays; everything else shows the file
        if (ta !== document.activeElement && !ta.dataset.local) {
          if (ta.value !== value) { ta.value = value; fit(ta); }
          ta.dataset.saved = value;
        } else if (ta.dataset.saved === undefined) {
          ta.dataset.saved = value;
        }
        if (f === 'say') ta.placeholder = r.spoken ? `said as: ${r.spoken}` : '';
        if (f === 'describe') ta.placeholder = r.described && !r.describe ? `from the clip's data: ${r.described}` : '';
        const err = $(`.st-err[data-for="${f}"]`, box);
        const msgs = mine.filter((p) => p.scope === 'beat' && p.beat === r.key && p.field === f).map((p) => p.message);
        const text = msgs.join('\n');
        if (err.textContent !== text && !(text === '' && ta.getAttribute('aria-invalid') === 'true' && ta.dataset.local)) err.textContent = text;
        ta.setAttribute('aria-invalid', text ? 'true' : 'false');
      }
      const shown = $('.shown', box);
      const html = r.text && r.text !== r.caption ? `On screen: <b>${esc(r.text)}</b>` : '';
      if (shown.innerHTML !== html) shown.innerHTML = html;
    });
    markNow();
  }

  function markNow() {
    const c = P.CLIPS[P.state.ci];
    const k = P.state.phase === 'playing' ? P.state.target : c.beats.findIndex((b) => b.s >= P.state.frame && b.b <= P.state.frame);
    const key = k >= 0 && c.beats[k] ? c.beats[k].key : '';
    for (const li of panel.querySelectorAll('.st-beat')) li.classList.toggle('now', li.dataset.key === key);
  }

  renderAll();
})();
