// The lecture presenter: plays the rendered clips and stops at the end of every beat.
// Written into OUT/Q/present/index.html by `clips present`; the deck (clips, frame timing,
// beats, captions as WebVTT) is the JSON in #deck.  Positions are whole frames: beat k of a
// clip starts on frame b and stops on frame s (the last frame before the next beat starts).
(() => {
  'use strict';

  const DECK = JSON.parse(document.getElementById('deck').textContent);
  const CLIPS = DECK.clips;
  const $ = (sel, root = document) => root.querySelector(sel);
  const app = $('#app');
  const vids = [$('#va'), $('#vb')];
  const HAS_RVFC = 'requestVideoFrameCallback' in HTMLVideoElement.prototype;
  const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch]));
  const pad2 = (n) => String(n).padStart(2, '0');

  const S = {
    ci: 0, // index of the current clip in CLIPS
    frame: 0, // frame shown (or last presented while playing)
    phase: 'loading', // loading | stopped | playing | stopping
    target: -1, // beat being played
    captions: true, described: false, split: false, overview: false, help: false, blank: false,
    started: null, // Date.now() when the first beat played (the speaker view's timer)
    digits: '', sel: 0, token: 0, popup: null, error: '', entering: false, slow: true,
  };
  const log = []; // one entry a stop: where playback paused and what was presented

  // ------------------------------------------------------------------ time and frames
  const timeOf = (c, f) => c.t0 + (f + 0.5) * c.fd; // the middle of frame f
  // a clock time lies in the frame shown then; a frame's own timestamp may sit a few ticks off its slot
  const frameOf = (c, t) => Math.max(0, Math.min(c.frames - 1, Math.floor((t - c.t0) / c.fd + 0.02)));
  const frameAt = (c, pts) => Math.max(0, Math.min(c.frames - 1, Math.round((pts - c.t0) / c.fd)));
  const nextBeat = (c, f) => c.beats.findIndex((b) => b.s > f); // the beat → plays from frame f (-1: none)
  const clock = (sec) => {
    sec = Math.max(0, Math.floor(sec));
    const h = Math.floor(sec / 3600), m = Math.floor((sec % 3600) / 60), s = sec % 60;
    return h ? `${h}:${pad2(m)}:${pad2(s)}` : `${m}:${pad2(s)}`;
  };
  const abs = (rel) => new URL(rel, location.href).href;

  // ------------------------------------------------------------------ the two video elements
  // One shows the current clip; the other preloads the next, so → across clips has no black gap.
  const cur = () => vids.find((v) => v.classList.contains('active')) || vids[0];
  const spare = () => vids.find((v) => v !== cur());
  const vttURLs = new Map();
  const vttURL = (ci, field = 'vtt') => {
    // <track src> cannot load a file: URL from a file: page in Chromium; a blob: URL of the inline text works everywhere
    const k = `${field}:${ci}`;
    if (!vttURLs.has(k)) vttURLs.set(k, URL.createObjectURL(new Blob([CLIPS[ci][field] || 'WEBVTT\n'], { type: 'text/vtt' })));
    return vttURLs.get(k);
  };
  const trackOf = (v, kind = 'captions') => { const t = v.querySelector(`track[kind="${kind}"]`); return t ? t.track : null; };

  function load(v, ci) {
    if (v.dataset.ci === String(ci)) return;
    v.pause();
    v.dataset.ci = String(ci);
    for (const t of v.querySelectorAll('track')) t.remove();
    const tr = document.createElement('track');
    Object.assign(tr, { kind: 'captions', srclang: 'en', label: 'Narration' });
    tr.src = vttURL(ci);
    v.appendChild(tr);
    tr.track.mode = S.captions ? 'hidden' : 'disabled'; // drawn by #caption, in the page's font
    tr.track.addEventListener('cuechange', () => { if (v === cur()) renderCaption(); });
    tr.addEventListener('load', () => { if (v === cur()) renderCaption(); });
    // the audio descriptions: what the picture shows that the narration does not say, read to
    // screen readers through the #described live region (and shown there) when D turns them on
    const dt = document.createElement('track');
    Object.assign(dt, { kind: 'descriptions', srclang: 'en', label: 'Audio description' });
    dt.src = vttURL(ci, 'dvtt');
    v.appendChild(dt);
    dt.track.mode = S.described ? 'hidden' : 'disabled';
    dt.track.addEventListener('cuechange', () => { if (v === cur()) renderDescription(); });
    dt.addEventListener('load', () => { if (v === cur()) renderDescription(); });
    v.src = CLIPS[ci].src;
  }

  function ready(v) {
    return new Promise((resolve, reject) => {
      if (v.readyState >= 1) return resolve();
      const ok = () => { off(); resolve(); };
      const bad = () => { off(); reject(mediaError(v)); };
      const off = () => { v.removeEventListener('loadedmetadata', ok); v.removeEventListener('error', bad); };
      v.addEventListener('loadedmetadata', ok);
      v.addEventListener('error', bad);
    });
  }

  function mediaError(v) {
    const c = CLIPS[Number(v.dataset.ci)] || {};
    const code = v.error ? v.error.code : 0;
    const why = { 1: 'loading was aborted', 2: 'a network error', 3: 'the video could not be decoded',
      4: 'this browser cannot play it (H.264 in MP4) or the file is missing' }[code] || 'an unknown error';
    return new Error(`Cannot play ${c.src}: ${why}`);
  }

  function seek(v, c, f) { // resolves when frame f is decoded (the compositor shows it next)
    return new Promise((resolve) => {
      const t = timeOf(c, f);
      if (!v.seeking && v.readyState >= 2 && Math.abs(v.currentTime - t) < 1e-6) return resolve();
      const done = () => { v.removeEventListener('seeked', done); resolve(); };
      v.addEventListener('seeked', done);
      v.currentTime = t;
    });
  }

  function activate(v) {
    for (const o of vids) { if (o !== v) { o.pause(); o.classList.remove('active'); } }
    v.classList.add('active');
  }

  function preloadNext() {
    const ci = S.ci + 1;
    if (ci >= CLIPS.length || !CLIPS[ci].src) return;
    const v = spare();
    if (v.dataset.ci === String(ci)) return;
    load(v, ci);
    ready(v).then(() => { if (v.dataset.ci === String(ci) && v !== cur()) return seek(v, CLIPS[ci], 0); }).catch(() => {});
  }

  // ------------------------------------------------------------------ moving around
  async function show(ci, f) { // stop on frame f of clip ci
    const token = ++S.token;
    const c = CLIPS[ci];
    f = Math.max(0, Math.min(c.frames - 1, f));
    for (const v of vids) { v.pause(); v.playbackRate = 1; }
    let v = cur();
    const same = v.dataset.ci === String(ci);
    S.phase = same ? 'stopping' : 'loading';
    S.ci = ci; S.frame = f; S.target = -1;
    if (!c.src) { // a clip not rendered yet (`clips studio` lists it while it renders): its title stands in
      S.frame = 0; S.phase = 'stopped';
      render();
      return false;
    }
    render();
    try {
      if (!same) {
        v = spare();
        load(v, ci);
        await ready(v);
        if (token !== S.token) return false;
      }
      await seek(v, c, f);
    } catch (err) {
      if (token === S.token) fail(err);
      return false;
    }
    if (token !== S.token) return false;
    activate(v);
    S.phase = 'stopped'; S.error = '';
    render();
    preloadNext();
    return true;
  }

  function playTo(k) {
    const c = CLIPS[S.ci], v = cur(), stop = c.beats[k].s;
    const token = ++S.token;
    S.phase = 'playing'; S.target = k;
    if (S.started === null) S.started = Date.now();
    render();
    const arrive = (presented) => {
      if (token !== S.token) return;
      v.pause();
      v.playbackRate = 1;
      finish(c, k, presented, v.currentTime, seen);
    };
    // At high frame rates a busy page can miss a frame's callback and see the stop frame go by;
    // over the beat's last ~60 ms (4 frames at 60 fps, a hold in every beat) play slower, so each
    // frame stays up for at least ~60 ms and the pause still lands on the stop frame.
    const seen = []; // the last frames presented: kept in the stop log
    const slowFrom = stop - Math.ceil(0.06 / c.fd);
    const slowRate = S.slow ? Math.min(1, c.fd / 0.06) : 1;
    v.playbackRate = 1;
    if (HAS_RVFC) {
      // called as each frame is handed to the compositor: pause on the stop frame, before the next one shows
      const onFrame = (now, md) => {
        if (token !== S.token) return;
        const f = frameAt(c, md.mediaTime);
        S.frame = f;
        seen.push(f); if (seen.length > 8) seen.shift();
        if (f >= stop) return arrive(f);
        if (f >= slowFrom && slowRate < 1 && v.playbackRate === 1) v.playbackRate = slowRate;
        v.requestVideoFrameCallback(onFrame);
      };
      v.requestVideoFrameCallback(onFrame);
    }
    const poll = () => { // without frame callbacks, and as a guard: the media clock
      if (token !== S.token) return;
      const f = frameOf(c, v.currentTime);
      if (!HAS_RVFC) S.frame = Math.max(S.frame, f);
      if (v.ended || f > stop + 1 || (!HAS_RVFC && f >= stop)) return arrive(f);
      setTimeout(poll, HAS_RVFC ? 40 : 4);
    };
    setTimeout(poll, 0);
    v.play().catch((err) => {
      if (token !== S.token) return;
      if (err.name !== 'NotAllowedError' || v.muted) return fail(err);
      // a clip with a voice may not start unmuted before the page was clicked or keyed: play it muted
      v.muted = true;
      toast('The browser holds back the sound until you click the page', 4000);
      v.play().catch((e) => { if (token === S.token) fail(e); });
    });
  }

  async function finish(c, k, presented, pausedAt, seen = []) {
    const token = ++S.token;
    const stop = c.beats[k].s, v = cur();
    S.phase = 'stopping'; S.frame = stop; S.target = -1;
    render();
    const entry = { clip: c.number, beat: k, key: c.beats[k].key, stop, end: c.beats[k].end,
      presented, pausedAt, pausedFrame: frameOf(c, pausedAt), seen: seen.slice() };
    await seek(v, c, stop); // land on the middle of the stop frame (its caption is showing there)
    entry.currentTime = v.currentTime;
    log.push(entry);
    if (token !== S.token) return;
    S.phase = 'stopped';
    render();
  }

  function next() {
    if (S.phase === 'playing') { // a second press finishes the beat at once
      const c = CLIPS[S.ci], v = cur();
      v.pause();
      v.playbackRate = 1;
      ++S.token;
      finish(c, S.target, null, v.currentTime);
      return;
    }
    if (S.phase === 'loading') return;
    const c = CLIPS[S.ci], k = nextBeat(c, S.frame);
    if (k >= 0) return playTo(k);
    if (S.ci + 1 < CLIPS.length) {
      S.entering = true; // straight into the next clip's first beat: no title card in between
      return show(S.ci + 1, 0).then((ok) => { S.entering = false; if (ok) playTo(0); else render(); });
    }
    toast('End of the lecture');
  }

  function back() {
    const c = CLIPS[S.ci];
    if (S.phase === 'playing') return show(S.ci, c.beats[S.target].b);
    const nb = nextBeat(c, S.frame), k = (nb < 0 ? c.beats.length : nb) - 1;
    if (k >= 0) return show(S.ci, c.beats[k].b);
    if (S.ci > 0) { const p = CLIPS[S.ci - 1]; return show(S.ci - 1, p.beats[p.beats.length - 1].b); }
    return show(0, 0);
  }

  const home = () => show(0, 0);
  const end = () => { const c = CLIPS[CLIPS.length - 1]; return show(CLIPS.length - 1, c.beats[c.beats.length - 1].s); };
  const indexOf = (number) => CLIPS.findIndex((c) => c.number === number);
  function jump(ci) { closeOverview(); return show(ci, 0); }

  function fail(err) {
    S.phase = 'stopped'; S.error = err.message || String(err);
    render();
    toast(S.error, 12000, true);
  }

  // ------------------------------------------------------------------ toggles
  function toggleCaptions() {
    S.captions = !S.captions;
    for (const v of vids) { const t = trackOf(v); if (t) t.mode = S.captions ? 'hidden' : 'disabled'; }
    toast(S.captions ? 'Captions on' : 'Captions off');
    render();
  }

  function toggleDescriptions() {
    S.described = !S.described;
    for (const v of vids) { const t = trackOf(v, 'descriptions'); if (t) t.mode = S.described ? 'hidden' : 'disabled'; }
    toast(S.described ? 'Audio descriptions on' : 'Audio descriptions off');
    render();
  }

  function toggleSplit() { S.split = !S.split; render(); }
  function toggleBlank() { S.blank = !S.blank; render(); }
  function toggleHelp(on = !S.help) { S.help = on; render(); }
  function restartTimer() { S.started = Date.now(); toast('Timer restarted'); tick(); }

  function toggleFullscreen(win = window) {
    const d = win.document;
    if (d.fullscreenElement) { d.exitFullscreen().catch(() => {}); return; }
    const el = d.documentElement;
    if (el.requestFullscreen) el.requestFullscreen().catch((e) => toast(`Full screen refused: ${e.message}`));
  }

  // ------------------------------------------------------------------ overview
  const overview = $('#overview'), grid = $('#overview .grid');
  function buildOverview() {
    $('h1', overview).textContent = DECK.heading;
    const nb = CLIPS.reduce((n, c) => n + c.beats.length, 0);
    $('.sub', overview).textContent = `${CLIPS.length} clips · ${nb} beats · ${clock(DECK.total)}`;
    grid.innerHTML = CLIPS.map((c, i) => `<li><button type="button" class="card" data-ci="${i}">
      <span class="thumb"><img src="${esc(c.thumb)}" alt="" loading="lazy" decoding="async"></span>
      <span class="meta"><span class="t"><span class="n">${pad2(c.number)}</span>${esc(c.title)}</span>
      <span class="d">${c.section && c.section !== '—' ? esc(c.section) + ' · ' : ''}${clock(c.duration)} · ${c.beats.length} beats · at ${clock(c.at)}</span></span>
    </button></li>`).join('');
  }
  grid.addEventListener('click', (e) => {
    const card = e.target.closest('.card');
    if (card) jump(Number(card.dataset.ci));
  });
  function openOverview() { S.overview = true; S.sel = S.ci; render(); focusSel(); }
  function closeOverview() { if (S.overview) { S.overview = false; render(); } }
  function focusSel() {
    const card = grid.querySelectorAll('.card')[S.sel];
    if (card) { card.focus({ preventScroll: true }); card.scrollIntoView({ block: 'nearest' }); }
  }
  function columns() {
    const items = [...grid.children]; // the list items: the cards inside move when chosen
    if (!items.length) return 1;
    const top = items[0].getBoundingClientRect().top;
    return Math.max(1, items.filter((li) => Math.abs(li.getBoundingClientRect().top - top) < 2).length);
  }
  function overviewKey(k) {
    const n = CLIPS.length, step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns(), ArrowUp: -columns() }[k];
    if (step !== undefined) { S.sel = Math.max(0, Math.min(n - 1, S.sel + step)); render(); focusSel(); return true; }
    if (k === 'Home' || k === 'End') { S.sel = k === 'Home' ? 0 : n - 1; render(); focusSel(); return true; }
    if (k === 'Enter' || k === ' ') { jump(S.sel); return true; }
    if (k === 'Escape' || k === 'o' || k === 'O') { closeOverview(); return true; }
    return false;
  }

  // ------------------------------------------------------------------ "a clip number, then Enter"
  let digitTimer = 0;
  function typeDigit(d) {
    S.digits = (S.digits + d).slice(-3);
    clearTimeout(digitTimer);
    digitTimer = setTimeout(() => { S.digits = ''; renderGoto(); }, 4000);
    renderGoto();
  }
  function gotoDigits() {
    const n = Number(S.digits), ci = indexOf(n);
    S.digits = ''; renderGoto();
    if (ci < 0) { toast(`There is no clip ${pad2(n)}`); return; }
    jump(ci);
  }
  function renderGoto() {
    const box = $('#goto');
    box.hidden = !S.digits;
    if (!S.digits) return;
    $('.digits', box).textContent = S.digits;
    const c = CLIPS[indexOf(Number(S.digits))];
    const name = $('.name', box);
    name.textContent = c ? c.title : 'no such clip';
    name.classList.toggle('none', !c);
  }

  // ------------------------------------------------------------------ keys
  function onKey(e, win = window) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    const k = e.key;
    let done = true;
    if (/^[0-9]$/.test(k)) { typeDigit(k); e.preventDefault(); return; }
    if (S.digits) {
      if (k === 'Enter') { gotoDigits(); e.preventDefault(); return; }
      if (k === 'Backspace') { S.digits = S.digits.slice(0, -1); renderGoto(); e.preventDefault(); return; }
      S.digits = ''; renderGoto();
      if (k === 'Escape') { e.preventDefault(); return; }
    }
    if (S.help) { toggleHelp(false); if (k === 'Escape' || k === '?' || k === 'h' || k === 'H') { e.preventDefault(); return; } }
    if (S.overview && overviewKey(k)) { e.preventDefault(); return; }
    switch (k) {
      case 'ArrowRight': case 'ArrowDown': case ' ': case 'PageDown': case 'Spacebar': next(); break;
      case 'ArrowLeft': case 'ArrowUp': case 'PageUp': back(); break;
      case 'Home': home(); break;
      case 'End': end(); break;
      case 'f': case 'F': case 'F5': toggleFullscreen(win); break; // clickers send F5 to "start the show"
      case 'c': case 'C': toggleCaptions(); break;
      case 'd': case 'D': toggleDescriptions(); break;
      case 's': case 'S': toggleSplit(); break;
      case 'p': case 'P': openSpeakerWindow(); break;
      case 'o': case 'O': case 'g': case 'G': S.overview ? closeOverview() : openOverview(); break;
      case 'b': case 'B': case '.': toggleBlank(); break;
      case 't': case 'T': restartTimer(); break;
      case '?': case 'h': case 'H': toggleHelp(); break;
      case 'Escape': if (S.overview) closeOverview(); else if (S.blank) toggleBlank(); else done = false; break;
      default: done = false;
    }
    if (done) e.preventDefault();
  }
  // keys typed into a text field (the studio's editors) are text, not commands
  const typing = (e) => e.target instanceof Element && !!e.target.closest('input, textarea, select, [contenteditable]');
  window.addEventListener('keydown', (e) => { if (!typing(e)) onKey(e); wake(); });

  for (const b of document.querySelectorAll('#hud button')) {
    b.addEventListener('click', () => {
      b.blur(); // Space must stay "next beat", not "press the focused button"
      ({ back, next, overview: openOverview, captions: toggleCaptions, described: toggleDescriptions, split: toggleSplit,
        fullscreen: () => toggleFullscreen(), help: () => toggleHelp() })[b.dataset.act]();
    });
  }

  // ------------------------------------------------------------------ idle: hide the bar and the pointer
  let idleTimer = 0;
  function wake() {
    document.body.classList.remove('idle');
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => { if (!S.overview && !S.help) document.body.classList.add('idle'); }, 2600);
  }
  window.addEventListener('mousemove', wake);

  // ------------------------------------------------------------------ drawing
  let toastTimer = 0;
  function toast(msg, ms = 1600, error = false) {
    const t = $('#toast');
    t.textContent = msg;
    t.style.borderColor = error ? '#F25F5C' : '';
    t.classList.add('show');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.remove('show'), ms);
  }

  // at frame 0 of a clip nothing has faded in yet: show its title until → plays it
  const isReady = () => S.frame === 0 && S.phase !== 'playing' && !S.entering;
  function renderReady() {
    const box = $('#ready'), c = CLIPS[S.ci];
    box.hidden = !isReady();
    if (box.hidden) return;
    $('.t', box).innerHTML = `<span class="n">${pad2(c.number)}</span>${esc(c.title)}`;
    $('.s', box).textContent = DECK.heading + (c.section && c.section !== '—' ? ` · notebook ${c.section}` : '');
  }

  const cueText = (q) => (q.getCueAsHTML ? q.getCueAsHTML().textContent : q.text); // &lt; back to <

  // Caption events end two frames before the next one (the broadcast gap), so a beat's stop frame may
  // fall in the gap after its last event: while stopped, the beat's last event stays up.
  function cuesNow(t, c) {
    if (!t || !t.cues) return [];
    const active = t.activeCues ? [...t.activeCues] : [];
    if (active.length || S.phase === 'playing') return active;
    const k = position().now;
    if (k < 0) return [];
    const b = c.beats[k], at = timeOf(c, S.frame);
    const inBeat = [...t.cues].filter((q) => q.startTime >= b.start - 1e-3 && q.startTime <= at + 1e-3);
    return inBeat.length ? [inBeat[inBeat.length - 1]] : [];
  }

  function renderCaption() {
    const box = $('#caption'), span = $('span', box), c = CLIPS[S.ci], t = trackOf(cur());
    let text = '';
    if (S.captions && t && S.phase !== 'loading' && !isReady()) {
      text = cuesNow(t, c).map(cueText).join('\n');
    }
    if (span.textContent !== text) span.textContent = text;
    box.classList.toggle('off', !S.captions);
  }

  let lastDescribed = '';
  function renderDescription() {
    const box = $('#described'), c = CLIPS[S.ci], t = trackOf(cur(), 'descriptions');
    let text = '';
    if (S.described && t && S.phase !== 'loading' && !isReady()) text = cuesNow(t, c).map(cueText).join(' ');
    box.classList.toggle('off', !S.described);
    if (text !== lastDescribed) { // the live region speaks what changes in it
      lastDescribed = text;
      $('.text', box).textContent = text;
    }
    box.classList.toggle('empty', !text);
  }

  // what the speaker sees: the beat just played ("now") and the one → plays ("next")
  function position() {
    const c = CLIPS[S.ci], n = c.beats.length;
    if (S.phase === 'playing') return { c, n, now: S.target, next: S.target + 1 < n ? S.target + 1 : -1, playing: true };
    const nb = nextBeat(c, S.frame);
    return { c, n, now: (nb < 0 ? n : nb) - 1, next: nb, playing: false };
  }

  function renderHUD() {
    const hud = $('#hud'), { c, n, now, playing } = position();
    $('.num', hud).textContent = pad2(c.number);
    $('.title', hud).textContent = c.title;
    const beats = $('.beats', hud);
    if (beats.children.length !== n) beats.innerHTML = '<i></i>'.repeat(n);
    [...beats.children].forEach((el, i) => {
      el.className = i < now ? 'done' : i === now ? (playing ? 'playing' : 'now') : '';
    });
    $('.pos', hud).textContent = `beat ${now + 1}/${n} · clip ${S.ci + 1}/${CLIPS.length}`;
    const t = c.at + Math.min(c.duration, S.frame * c.fd);
    $('.progress .fill', hud).style.width = `${(100 * t / DECK.total).toFixed(3)}%`;
    for (const b of hud.querySelectorAll('button')) {
      const on = { captions: S.captions, described: S.described, split: S.split || !!(S.popup && !S.popup.closed), overview: S.overview }[b.dataset.act];
      b.classList.toggle('on', !!on);
      if (b.dataset.act in { captions: 1, described: 1, split: 1 }) b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  }

  function speakerHTML(absolute) {
    const { c, n, now, next, playing } = position();
    const url = absolute ? abs : (x) => x;
    let nextHTML;
    if (next >= 0) {
      nextHTML = `<div class="sp-text">${esc(c.beats[next].text)}</div>`;
    } else if (S.ci + 1 < CLIPS.length) {
      const d = CLIPS[S.ci + 1];
      nextHTML = `<div class="sp-clipnext"><img src="${esc(url(d.thumb))}" alt="">
        <div><div class="sp-clip"><span class="n">${pad2(d.number)}</span>${esc(d.title)}</div>
        <div class="sp-text">${esc(d.beats[0].text)}</div></div></div>`;
    } else {
      nextHTML = '<div class="sp-text">End of the lecture.</div>';
    }
    const nowText = now >= 0 ? c.beats[now].text : 'Not started: → plays the first beat.';
    const nowDescribe = now >= 0 && c.beats[now].describe ? `<div class="sp-describe"><span class="sp-ad">AD</span> ${esc(c.beats[now].describe)}</div>` : '';
    const list = c.beats.map((b, i) => `<li data-k="${i + 1}" class="${i < now || (i === now && !playing) ? 'done' : ''}${i === now ? ' now' : ''}">${esc(b.text)}</li>`).join('');
    return `<div class="sp-top"><div><div class="sp-label">Elapsed</div><div class="sp-timer"></div></div>
        <div class="sp-clock"></div></div>
      <div class="sp-state"><div class="sp-clip"><span class="n">${pad2(c.number)}</span>${esc(c.title)}</div>
        <div class="sp-where"><span class="sp-pill ${playing ? 'playing' : ''}">${playing ? 'playing' : S.phase === 'loading' ? 'loading' : 'stopped'}</span>
        beat ${now + 1} of ${n} · clip ${S.ci + 1} of ${CLIPS.length}</div></div>
      <div class="sp-card sp-now"><div class="sp-label"><span>Now</span><b>${now >= 0 ? `beat ${now + 1}` : ''}</b></div>
        <div class="sp-text">${esc(nowText)}</div>${nowDescribe}</div>
      <div class="sp-card sp-next"><div class="sp-label"><span>Next</span><b>${next >= 0 ? `beat ${next + 1}` : S.ci + 1 < CLIPS.length ? 'next clip' : ''}</b></div>${nextHTML}</div>
      <div><div class="sp-label"><span>This clip</span></div><ol class="sp-list">${list}</ol></div>`;
  }

  let speakerKey = '';
  function renderSpeaker() {
    const key = [S.ci, S.frame, S.phase, S.target].join();
    const popup = S.popup && !S.popup.closed ? S.popup : null;
    if (key !== speakerKey || renderSpeaker.force) {
      speakerKey = key; renderSpeaker.force = false;
      if (S.split) $('#speaker').innerHTML = speakerHTML(false);
      if (popup) popup.document.body.innerHTML = speakerHTML(true);
    }
    tick();
  }

  function tick() {
    const elapsed = S.started === null ? null : (Date.now() - S.started) / 1000;
    const left = DECK.total - (CLIPS[S.ci].at + S.frame * CLIPS[S.ci].fd);
    const now = new Date();
    const roots = [];
    if (S.split) roots.push(document);
    if (S.popup && !S.popup.closed) roots.push(S.popup.document);
    for (const root of roots) {
      const t = $('.sp-timer', root), k = $('.sp-clock', root);
      if (t) { t.textContent = elapsed === null ? '0:00' : clock(elapsed); t.classList.toggle('idle', elapsed === null); }
      if (k) k.innerHTML = `${pad2(now.getHours())}:${pad2(now.getMinutes())}<br>${clock(left)} of video left`;
    }
  }
  setInterval(tick, 500);

  function render() {
    const v = cur();
    app.classList.toggle('split', S.split);
    $('#speaker').hidden = !S.split;
    if (S.split) renderSpeaker.force = renderSpeaker.force || !$('#speaker').firstChild;
    $('#blank').hidden = !S.blank;
    $('#help').hidden = !S.help;
    overview.hidden = !S.overview;
    if (S.overview) {
      grid.querySelectorAll('.card').forEach((el, i) => {
        el.classList.toggle('current', i === S.ci);
        el.classList.toggle('sel', i === S.sel);
        const tag = $('.now', el);
        if (i === S.ci && !tag) $('.thumb', el).insertAdjacentHTML('beforeend', '<span class="now">now</span>');
        if (i !== S.ci && tag) tag.remove();
      });
    }
    document.body.dataset.phase = S.phase;
    document.body.dataset.clip = String(CLIPS[S.ci].number);
    renderHUD();
    renderReady();
    renderCaption();
    renderDescription();
    renderSpeaker();
    document.title = `${pad2(CLIPS[S.ci].number)} ${CLIPS[S.ci].title} · ${DECK.heading}`;
    if (S.phase === 'stopped' && v) {
      const h = `#clip=${CLIPS[S.ci].number}&frame=${S.frame}`;
      if (location.hash !== h) try { history.replaceState(null, '', h); } catch (e) { /* some file: set-ups refuse */ }
    }
  }

  // ------------------------------------------------------------------ the speaker window
  function openSpeakerWindow() {
    let w = S.popup && !S.popup.closed ? S.popup : null;
    if (!w) w = window.open('', 'clips-speaker', 'popup,width=980,height=720');
    if (!w) { toast('The browser blocked the speaker window: allow pop-ups here, or press S for the split view', 6000, true); return; }
    S.popup = w;
    const d = w.document;
    d.open();
    d.write(`<!doctype html><html lang="en" class="speaker-window"><head><meta charset="utf-8"><meta name="color-scheme" content="dark">
      <title>Speaker view · ${esc(DECK.heading)}</title><style>${document.querySelector('style').textContent}</style></head><body></body></html>`);
    d.close();
    w.addEventListener('keydown', (e) => onKey(e, w));
    renderSpeaker.force = true;
    render();
    w.focus();
  }
  window.addEventListener('pagehide', () => { if (S.popup && !S.popup.closed) S.popup.close(); });

  // ------------------------------------------------------------------ start
  function fromHash() {
    const m = /clip=(\d+)&frame=(\d+)/.exec(location.hash);
    if (!m) return [0, 0];
    const ci = indexOf(Number(m[1]));
    return ci < 0 ? [0, 0] : [ci, Number(m[2])];
  }

  buildOverview();
  const [ci0, f0] = fromHash();
  vids[0].classList.add('active');
  render();
  wake();
  const started = show(ci0, f0);

  // a clip rendered again (`clips studio`): its new data in place of the old, played from wherever the caller
  // shows it next; the video on screen keeps the old render until the new one is loaded and seeked
  function update(clip) {
    const ci = indexOf(clip.number);
    if (ci < 0) return -1;
    CLIPS[ci] = clip;
    let at = 0;
    for (const c of CLIPS) { c.at = at; at += c.length || c.duration; }
    DECK.total = at;
    for (const field of ['vtt', 'dvtt']) {
      const k = `${field}:${ci}`;
      if (vttURLs.has(k)) { URL.revokeObjectURL(vttURLs.get(k)); vttURLs.delete(k); }
    }
    for (const v of vids) if (v.dataset.ci === String(ci)) v.dataset.ci = '';
    if (S.overview) buildOverview();
    render();
    return ci;
  }

  // for tests and for the curious: the state, the stop log and the moves
  window.presenter = { DECK, CLIPS, state: S, log, started, next, back, home, end, show, jump, indexOf, playTo, update,
    frameOf, timeOf, current: cur, toggleCaptions, toggleDescriptions, openOverview, closeOverview, openSpeakerWindow };
})();
