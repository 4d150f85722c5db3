// sow view: steps through the games embedded in this page. Every position comes from
// the page's data (PMN Position strings made by sow's replay); this script only shows
// them and marks what each ply did. It knows no rule of any game.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var index = JSON.parse(document.getElementById('sow-index').textContent);
  var cache = {};
  var current = null; // { n, G, pits, prisons, marks, svg, links }
  var ply = 0;

  function $(id) { return document.getElementById(id); }

  // A position written as its changes from the one before (`~I:CELL,...|TAIL`, cells
  // counted along the rows of the PMN string), rebuilt as its PMN string.
  function withChanges(before, changes) {
    var space = before.indexOf(' ');
    var rows = (space < 0 ? before : before.slice(0, space)).split('/');
    var cells = rows.join(',').split(',');
    var bar = changes.indexOf('|');
    var list = changes.slice(1, bar);
    if (list) {
      list.split(',').forEach(function (c) {
        var colon = c.indexOf(':');
        cells[parseInt(c.slice(0, colon), 10)] = c.slice(colon + 1);
      });
    }
    var out = [], at = 0;
    rows.forEach(function (r) {
      var n = r.split(',').length;
      out.push(cells.slice(at, at + n).join(','));
      at += n;
    });
    return out.join('/') + changes.slice(bar + 1);
  }

  // What a ply did not do is left out of the data.
  function gameData(n) {
    if (!cache[n]) {
      var G = JSON.parse($('sow-game-' + n).textContent);
      G.variations = G.variations || [];
      [G].concat(G.variations).forEach(function (L) {
        for (var k = 1; k < L.positions.length; k++) {
          if (L.positions[k].charAt(0) === '~') L.positions[k] = withChanges(L.positions[k - 1], L.positions[k]);
        }
        L.plies.forEach(function (P) {
          P.laps = (P.laps || []).map(function (l) { return l.split('-'); });
          ['captured', 'bonus', 'stones', 'placed'].forEach(function (k) { P[k] = P[k] || []; });
        });
      });
      cache[n] = G;
    }
    return cache[n];
  }

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function s(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function sideName(c) { return c === 'S' ? 'South' : 'North'; }

  // A PMN Position string: rows top to bottom as South sees them, the side to move,
  // Kiothi's prisons and the opening mark.
  function parsePosition(text) {
    var parts = text.split(' ');
    var rows = parts[0].split('/');
    var n = rows.length;
    var pos = { pits: {}, side: parts[1], prisons: null, opening: false };
    for (var i = 0; i < n; i++) {
      var letter = 'abcd'.charAt(n - 1 - i);
      var cells = rows[i].split(',');
      for (var j = 0; j < cells.length; j++) {
        var cell = cells[j];
        var nki = cell.charAt(cell.length - 1) === '*';
        pos.pits[letter + (j + 1)] = { stones: parseInt(cell, 10), nki: nki };
      }
    }
    for (var k = 2; k < parts.length; k++) {
      var m = /^([SN]):(\d+)$/.exec(parts[k]);
      if (m) {
        pos.prisons = pos.prisons || {};
        pos.prisons[m[1]] = parseInt(m[2], 10);
      } else if (parts[k] === 'opening') {
        pos.opening = true;
      }
    }
    return pos;
  }

  function lastPly(G) {
    return Math.max(0, G.positions.length - 1) + (G.stop ? 1 : 0);
  }

  // The line being stepped through: the main line, or a variation (`v`), whose plies
  // are numbered from the main-line ply they replace; `base` is the ply before them.
  var L = null;

  function lineOf(G, v) {
    var V = v === null ? null : G.variations[v];
    if (!V || !V.positions.length) {
      return { v: null, base: 0, positions: G.positions, plies: G.plies, stop: G.stop, diagnostics: G.diagnostics };
    }
    return { v: v, base: V.at - 1, positions: V.positions, plies: V.plies, stop: V.stop, diagnostics: V.diagnostics };
  }

  function lastOf(line) {
    return line.base + Math.max(0, line.positions.length - 1) + (line.stop ? 1 : 0);
  }

  function address(n, p, v) {
    // Variations are numbered from 1 in the address, as games and plies are.
    return '#g=' + n + (v === null || v === undefined ? '' : '&v=' + (v + 1)) + '&p=' + p;
  }

  // ---- the board -------------------------------------------------------------

  function loadBoard(G) {
    var holder = $('board');
    holder.textContent = '';
    var state = { pits: {}, prisons: {}, svg: null, marks: null };
    if (G.board === null || G.board === undefined) {
      holder.appendChild(h('p', 'no-board', 'No board: the game could not be set up (see its problems).'));
      return state;
    }
    holder.innerHTML = index.boards[G.board];
    var svg = holder.querySelector('svg');
    state.svg = svg;
    svg.setAttribute('role', 'group');
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    var marks = s('g', { 'class': 'sow-marks', 'aria-hidden': 'true' }, svg);
    var counts = s('g', { 'class': 'sow-counts', 'aria-hidden': 'true' }, svg);
    state.marks = marks;
    var groups = svg.querySelectorAll('g.pit');
    for (var i = 0; i < groups.length; i++) {
      var g = groups[i];
      var circle = g.querySelector('circle');
      var texts = g.querySelectorAll('text');
      var count = texts[texts.length - 1];
      var cx = parseFloat(circle.getAttribute('cx'));
      var cy = parseFloat(circle.getAttribute('cy'));
      var r = parseFloat(circle.getAttribute('r'));
      counts.appendChild(count);
      count.setAttribute('class', 'count');
      count.id = 'count-' + g.id;
      g.setAttribute('data-count', count.id);
      var star = s('text', { 'class': 'nki-mark', x: cx + r * 0.5, y: cy - r * 0.35 }, counts);
      star.textContent = '*';
      g.setAttribute('role', 'img');
      state.pits[g.id] = { g: g, count: count, star: star, x: cx, y: cy, r: r,
        head: g.classList.contains('head') };
    }
    ['S', 'N'].forEach(function (side) {
      var p = svg.querySelector('[id="prison-' + side + '"]');
      if (p) {
        var t = p.querySelectorAll('text');
        p.setAttribute('role', 'img');
        t[t.length - 1].id = 'count-prison-' + side;
        p.setAttribute('data-count', 'count-prison-' + side);
        state.prisons[side] = { g: p, count: t[t.length - 1] };
      }
    });
    return state;
  }

  // A seat as PMN.md names it: North sits at the top (rows d and c, or b), South at
  // the bottom; the player's name from the South or North tag.
  function seatName(G, side) {
    var name = null;
    G.tags.forEach(function (t) { if (t[0] === sideName(side) && t[1].trim() && t[1] !== '?') name = t[1]; });
    return sideName(side) + (name ? ': ' + name : '');
  }

  function showPosition(state, G, pos, text) {
    for (var id in state.pits) {
      var pit = state.pits[id];
      var cell = pos.pits[id] || { stones: 0, nki: false };
      pit.count.textContent = String(cell.stones);
      pit.g.classList.toggle('nki', cell.nki);
      pit.star.setAttribute('display', cell.nki ? 'inline' : 'none');
      var label = id + ', ' + plural(cell.stones, 'stone', 'stones');
      if (pit.head) label += ', head';
      if (cell.nki) label += ', nki';
      pit.g.setAttribute('aria-label', label);
    }
    for (var side in state.prisons) {
      var n = pos.prisons ? pos.prisons[side] || 0 : 0;
      state.prisons[side].count.textContent = String(n);
      state.prisons[side].g.setAttribute('aria-label',
        sideName(side) + ' prison, ' + plural(n, 'stone', 'stones'));
    }
    ['S', 'N'].forEach(function (side) {
      var seat = $('seat-' + side);
      seat.classList.toggle('to-move', pos.side === side);
      seat.textContent = seatName(G, side) + (pos.side === side ? ' \u2014 to move' : '');
    });
    if (state.svg) {
      var caption = (G.rules || '') + ', ' + sideName(pos.side) + ' to move' +
        (pos.opening ? ', opening redistribution to come' : '');
      state.svg.setAttribute('aria-label', 'Board: ' + caption);
      var title = state.svg.querySelector('title');
      if (title) title.textContent = caption;
      var desc = state.svg.querySelector('desc');
      if (desc) desc.textContent = text;
    }
  }

  function ring(parent, pit, cls, extra) {
    return s('circle', { 'class': cls, cx: pit.x, cy: pit.y, r: pit.r + extra }, parent);
  }

  function taken(parent, pit, cls, n) {
    var d = pit.r * 0.7;
    if (cls === 'mark-captured') {
      s('path', { 'class': cls, d: 'M' + (pit.x - d) + ',' + (pit.y - d) + ' L' + (pit.x + d) + ',' +
        (pit.y + d) + ' M' + (pit.x + d) + ',' + (pit.y - d) + ' L' + (pit.x - d) + ',' + (pit.y + d) }, parent);
    } else {
      var side = pit.r * 2 + 6;
      s('rect', { 'class': cls, x: pit.x - side / 2, y: pit.y - side / 2, width: side, height: side, rx: 3 }, parent);
    }
    var t = s('text', { 'class': cls + '-n', x: pit.x - pit.r - 2, y: pit.y - pit.r * 0.8 }, parent);
    t.textContent = '\u2212' + n;
  }

  var MAX_ARROWS = 48;

  function showSowing(state, P) {
    var marks = state.marks;
    if (!marks) return;
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    if (!P) return;
    var pits = state.pits;
    P.from.forEach(function (id) { if (pits[id]) ring(marks, pits[id], 'mark-start', 3); });
    var badges = [];
    for (var i = 0; i < P.laps.length && i < MAX_ARROWS; i++) {
      var a = pits[P.laps[i][0]], b = pits[P.laps[i][1]];
      if (!a || !b) continue;
      var dx = b.x - a.x, dy = b.y - a.y, len = Math.sqrt(dx * dx + dy * dy);
      var mx, my;
      if (len < 1) {
        mx = a.x; my = a.y - a.r - 8;
      } else {
        // Bent to one side, so that laps along a row stay apart; it stops at the ring.
        var bend = a.r * 0.9;
        var cx = (a.x + b.x) / 2 - dy / len * bend, cy = (a.y + b.y) / 2 + dx / len * bend;
        var ex = b.x - dx / len * b.r, ey = b.y - dy / len * b.r;
        s('path', { 'class': 'mark-lap', d: 'M' + a.x.toFixed(1) + ',' + a.y.toFixed(1) + ' Q' +
          cx.toFixed(1) + ',' + cy.toFixed(1) + ' ' + ex.toFixed(1) + ',' + ey.toFixed(1),
          'marker-end': 'url(#arrow)' }, marks);
        mx = 0.25 * a.x + 0.5 * cx + 0.25 * ex;
        my = 0.25 * a.y + 0.5 * cy + 0.25 * ey;
      }
      badges.push([mx, my, i + 1]);
    }
    if (P.end && pits[P.end]) {
      ring(marks, pits[P.end], 'mark-end', 5);
      ring(marks, pits[P.end], 'mark-end-inner', 2);
    }
    P.captured.forEach(function (c) { if (pits[c[0]]) taken(marks, pits[c[0]], 'mark-captured', c[1]); });
    P.bonus.forEach(function (c) { if (pits[c[0]]) taken(marks, pits[c[0]], 'mark-bonus', c[1]); });
    P.placed.forEach(function (c) {
      var pit = pits[c[0]];
      if (!pit) return;
      ring(marks, pit, 'mark-placed', 3);
      var t = s('text', { 'class': 'mark-placed-n', x: pit.x - pit.r - 2, y: pit.y - pit.r * 0.8 }, marks);
      t.textContent = '+' + c[1];
    });
    badges.forEach(function (b) {
      s('circle', { 'class': 'lap-badge', cx: b[0], cy: b[1], r: 7 }, marks);
      var t = s('text', { 'class': 'lap-badge-n', x: b[0], y: b[1] + 3 }, marks);
      t.textContent = String(b[2]);
    });
  }

  // ---- the text beside the board -----------------------------------------------

  function pitList(list) {
    return list.map(function (c) { return c[0] + ' (' + c[1] + ')'; }).join(', ');
  }

  function checkpointText(c) {
    var t = '[%stones ' + c.written + ']: ';
    if (!c.actual) return t + 'not checked (the position is not known)';
    return t + 'the replay has South ' + c.actual[0] + ' and North ' + c.actual[1] + ' ' +
      c.what + (c.agrees ? ' \u2714 agrees' : ' \u2716 disagrees');
  }

  function checkpoints(parent, list) {
    list.forEach(function (c) {
      parent.appendChild(h('p', 'checkpoint ' + (c.agrees ? 'agrees' : 'disagrees'), checkpointText(c)));
    });
  }

  function diagnosticBlock(G, d, withPly) {
    var box = h('div', 'diag ' + d.severity);
    var head = h('p', 'diag-head');
    head.appendChild(h('strong', null, (d.severity === 'error' ? '\u2716 error' : '\u26A0 warning') + ' [' + d.code + ']'));
    var where = [];
    if (withPly && d.ply) where.push('ply ' + d.ply);
    if (d.line) where.push('line ' + d.line + ', column ' + d.column);
    if (where.length) head.appendChild(document.createTextNode(' (' + where.join(', ') + ')'));
    box.appendChild(head);
    box.appendChild(h('p', 'diag-message', d.message));
    if (d.legal && d.legal.length) box.appendChild(h('p', 'diag-legal', 'Legal plies here: ' + d.legal.join(' ')));
    if (d.position) box.appendChild(h('p', 'diag-position', 'Position: ' + d.position));
    if (d.suggestions && d.suggestions.length) {
      box.appendChild(h('p', 'diag-sub', 'Suggested repairs:'));
      var ul = h('ul', 'diag-suggestions');
      d.suggestions.forEach(function (t) { ul.appendChild(h('li', null, t)); });
      box.appendChild(ul);
    }
    if (d.suggestions_stopped) box.appendChild(h('p', 'diag-sub', 'Search: ' + d.suggestions_stopped));
    if (withPly && d.ply) {
      var a = h('a', 'diag-go', 'Go to ply ' + d.ply);
      a.href = '#g=' + current.n + '&p=' + Math.min(d.ply, lastPly(G));
      box.appendChild(a);
    }
    return box;
  }

  function plyText(G, n) {
    if (n >= 1 && n <= G.plies.length) return G.plies[n - 1].text;
    for (var i = 0; i < G.moves.length; i++) if (G.moves[i].k === 'p' && G.moves[i].p === n) return G.moves[i].t;
    return '';
  }

  function moveNumberOf(P) {
    return P.side === 'S' ? Math.ceil(P.number / 2) + '.' : Math.ceil(P.number / 2) + '...';
  }

  function showDetail(G, P) {
    var box = $('ply-detail');
    box.textContent = '';
    if (L.v !== null) {
      box.appendChild(h('p', 'in-variation', 'In variation ' + (L.v + 1) + ', which replaces ply ' + (L.base + 1) + ' of the main line.'));
    }
    if (L.v !== null && ply === L.base) {
      box.appendChild(h('p', null, 'The position before the variation\'s first ply.'));
    } else if (ply === 0) {
      box.appendChild(h('p', null, 'The start position' + (G.tags.some(function (t) { return t[0] === 'SetUp' && t[1] === '1'; }) ? ' (set up by the Position tag).' : '.')));
      checkpoints(box, G.start_stones);
    } else if (P) {
      box.appendChild(h('p', 'ply-title', 'Ply ' + P.number + ', ' + sideName(P.side) + ': ' + P.text));
      var dl = h('dl', 'sowing');
      function row(name, value, cls) {
        var dt = h('dt', cls, name);
        dl.appendChild(dt);
        dl.appendChild(h('dd', cls, value));
      }
      if (P.from.length) row(P.placed.length ? 'Emptied' : 'Start', P.from.join(', '), 'k-start');
      if (P.placed.length) row('Placed', P.placed.map(function (c) { return c[0] + ' (+' + c[1] + ')'; }).join(', '), 'k-placed');
      if (P.lap_count) {
        var dt = h('dt', 'k-lap', 'Laps');
        var dd = h('dd', 'k-lap');
        dd.appendChild(document.createTextNode(String(P.lap_count)));
        var ol = h('ol', 'laps');
        P.laps.forEach(function (l) { ol.appendChild(h('li', null, l[0] + ' \u2192 ' + l[1])); });
        dd.appendChild(ol);
        if (P.lap_count > P.laps.length) dd.appendChild(h('p', null, '\u2026 and ' + (P.lap_count - P.laps.length) + ' more'));
        dl.appendChild(dt);
        dl.appendChild(dd);
      }
      if (P.end) row('End', P.end, 'k-end');
      if (P.lap_count || P.captured.length) row('Captured', P.captured.length ? pitList(P.captured) : 'nothing', 'k-captured');
      if (P.bonus.length) row('Bonus', pitList(P.bonus), 'k-bonus');
      if (P.prison_gain) row('To prison', String(P.prison_gain), null);
      if (P.nki_marked) row('Nki', 'the opening is over: every occupied pit is now nki', null);
      if (P.foul) row('Foul', 'played under [%foul]: it broke a rule and was accepted', 'foul');
      box.appendChild(dl);
      checkpoints(box, P.stones);
    } else {
      box.appendChild(h('p', 'stopped', 'Ply ' + ply + ' `' + plyText(G, ply) +
        '` could not be played. The board is as it stood before it.'));
    }
    if (ply === lastPly(G) && L.v === null) {
      if (G.ending) box.appendChild(h('p', 'ending', G.ending));
      else if (!G.stop && G.positions.length) box.appendChild(h('p', 'ending', 'The game is not over after this ply.'));
    }
    if (L.v !== null) {
      var back = h('a', 'back', 'Back to the main line at ply ' + L.base);
      back.href = address(current.n, L.base, null);
      box.appendChild(back);
    }
    var probs = $('ply-problems');
    probs.textContent = '';
    if (ply > L.base) {
      L.diagnostics.forEach(function (d) {
        // A problem past the last ply shown (a result after a replay that stopped) is
        // shown at the last.
        var last = lastOf(L);
        if (d.ply === ply || (ply === last && d.ply > last)) probs.appendChild(diagnosticBlock(G, d, false));
      });
    }
  }

  function statusText(G, P) {
    var t = 'Game ' + current.n + ', ';
    if (L.v !== null) t += 'variation ' + (L.v + 1) + ', ';
    if (ply === 0) t += 'start position';
    else if (L.v !== null && ply === L.base) t += 'before the variation';
    else if (P) t += 'ply ' + ply + ' of ' + lastOf(L) + ': ' + moveNumberOf(P) + ' ' + P.text + ' by ' + sideName(P.side);
    else t += 'ply ' + ply + ': ' + plyText(G, ply) + ' could not be played';
    var errors = 0, warnings = 0;
    L.diagnostics.forEach(function (d) {
      if (ply > L.base && d.ply === ply) { if (d.severity === 'error') errors++; else warnings++; }
    });
    if (errors) t += '; ' + plural(errors, 'error', 'errors');
    if (warnings) t += '; ' + plural(warnings, 'warning', 'warnings');
    if (P && P.captured.length) t += '; captured ' + pitList(P.captured);
    t += '.';
    if (L.v === null && ply === lastPly(G) && G.ending) t += ' ' + G.ending;
    return t;
  }

  // ---- a game --------------------------------------------------------------------

  function buildMoves(G, n) {
    var root = $('moves');
    root.textContent = '';
    var links = {};
    var marks = {};
    G.diagnostics.forEach(function (d) {
      if (d.ply) marks[d.ply] = (marks[d.ply] === 'error' || d.severity === 'error') ? 'error' : 'warning';
    });
    var stack = [h('p', 'line main')];
    root.appendChild(stack[0]);
    // For each open variation: which replayed variation it is, and its next ply.
    var lines = [null];
    var last = lastPly(G);
    G.moves.forEach(function (it) {
      var here = stack[stack.length - 1];
      var line = lines[lines.length - 1];
      var e;
      if (it.k === 'n') e = h('span', 'num', it.t);
      else if (it.k === 'p' && line) {
        var q = line.next++;
        if (q <= lastOf(line.L)) {
          e = h('a', 'ply in-variation', it.t);
          e.href = address(n, q, line.L.v);
          links[line.L.v + ':' + q] = e;
          var vm = line.L.diagnostics.some(function (d) { return d.ply === q && d.severity === 'error'; });
          if (vm) e.classList.add('error');
          e.setAttribute('aria-label', 'variation ' + (line.L.v + 1) + ', ply ' + q + ' ' + it.t + (vm ? ', error' : ''));
        } else {
          e = h('span', 'ply in-variation unplayed', it.t);
        }
      } else if (it.k === 'p') {
        if (it.p && it.p <= last) {
          e = h('a', 'ply', it.t);
          e.href = address(n, it.p, null);
          links['m:' + it.p] = e;
          var P = G.plies[it.p - 1];
          if (P && P.foul) e.classList.add('foul');
          if (marks[it.p]) e.classList.add(marks[it.p]);
          var label = 'ply ' + it.p + ' ' + it.t;
          if (P && P.foul) label += ', foul';
          if (marks[it.p]) label += ', ' + marks[it.p];
          e.setAttribute('aria-label', label);
        } else if (it.p) {
          e = h('span', 'ply unplayed', it.t);
          e.title = 'not replayed';
        } else {
          e = h('span', 'ply in-variation', it.t);
        }
      } else if (it.k === 'c') e = h('span', 'comment', it.t);
      else if (it.k === 'g') e = h('span', 'nag', it.t);
      else if (it.k === 'r') e = h('span', 'result-token', it.t);
      else if (it.k === '(') {
        var v = h('div', 'variation');
        v.setAttribute('role', 'group');
        v.setAttribute('aria-label', 'variation');
        here.appendChild(v);
        stack.push(v);
        var VL = it.v === undefined ? null : lineOf(G, it.v);
        lines.push(VL && VL.v !== null ? { L: VL, next: VL.base + 1 } : null);
        return;
      } else if (it.k === ')') {
        if (stack.length > 1) { stack.pop(); lines.pop(); }
        var rest = h('span', 'after-variation');
        stack[stack.length - 1].appendChild(rest);
        return;
      }
      if (e) {
        here.appendChild(e);
        here.appendChild(document.createTextNode(' '));
      }
    });
    if (G.stop && !links['m:' + G.stop]) {
      // The ply that stopped the replay was not read as a ply (text the reader could
      // not read): it is marked at the end of the main line.
      var e = h('a', 'ply error', 'ply ' + G.stop + ' (not read)');
      e.href = address(n, G.stop, null);
      e.setAttribute('aria-label', 'ply ' + G.stop + ', not read, error');
      links['m:' + G.stop] = e;
      var result = stack[0].querySelector('.result-token');
      stack[0].insertBefore(e, result);
      stack[0].insertBefore(document.createTextNode(' '), result);
    }
    if (!G.moves.length) root.appendChild(h('p', null, 'No move text.'));
    return links;
  }

  function buildHeader(G, n) {
    var entry = index.games[n - 1];
    $('game-title').textContent = entry.title;
    var tags = $('tags');
    tags.textContent = '';
    var shown = ['Event', 'Site', 'Date', 'Round', 'South', 'North', 'Source', 'Transcriber', 'Annotator', 'Game', 'Board', 'Rules'];
    var rows = G.tags.slice().sort(function (a, b) {
      var i = shown.indexOf(a[0]), j = shown.indexOf(b[0]);
      return (i < 0 ? 99 : i) - (j < 0 ? 99 : j);
    });
    rows.forEach(function (t) {
      tags.appendChild(h('dt', null, t[0]));
      tags.appendChild(h('dd', null, t[1]));
    });
    tags.appendChild(h('dt', null, 'File'));
    tags.appendChild(h('dd', null, G.input + ', game ' + G.index));
    if (G.rules) {
      tags.appendChild(h('dt', null, 'Replayed as'));
      tags.appendChild(h('dd', null, G.rules));
    }
    var result = 'Result: ' + (G.declared || 'not given') + '. ';
    if (G.ending) result += 'After ply ' + (G.positions.length - 1) + ': ' + G.ending;
    else if (G.stop) result += 'The replay stopped at ply ' + G.stop + ', which could not be played.';
    else if (G.positions.length && G.positions.length - 1 < G.plies_written) result += 'The replay stopped after ply ' + (G.positions.length - 1) + ' of ' + G.plies_written + '.';
    else if (G.positions.length) result += 'The game is not over after its ' + plural(G.positions.length - 1, 'ply', 'plies') + '.';
    $('result').textContent = result;
    var gp = $('game-problems');
    gp.textContent = '';
    G.diagnostics.forEach(function (d) {
      if (!d.ply) gp.appendChild(diagnosticBlock(G, d, false));
    });
    var all = $('problem-list');
    all.textContent = '';
    if (!G.diagnostics.length) all.appendChild(h('p', null, 'None: the record replays without a problem.'));
    G.diagnostics.forEach(function (d) { all.appendChild(diagnosticBlock(G, d, true)); });
  }

  function buildGameList() {
    var ol = $('game-list');
    index.games.forEach(function (e, i) {
      var li = h('li');
      var a = h('a', 'game-link', e.title);
      a.href = '#g=' + (i + 1) + '&p=' + (e.first_error || 0);
      var label = e.title;
      li.appendChild(a);
      if (e.errors) {
        li.appendChild(h('span', 'mark error', '\u2716 ' + plural(e.errors, 'error', 'errors')));
        label += ', ' + plural(e.errors, 'error', 'errors');
      }
      if (e.warnings) {
        li.appendChild(h('span', 'mark warning', '\u26A0 ' + plural(e.warnings, 'warning', 'warnings')));
        label += ', ' + plural(e.warnings, 'warning', 'warnings');
      }
      a.setAttribute('aria-label', label);
      ol.appendChild(li);
    });
    $('games').hidden = index.games.length < 2;
  }

  function buildKey() {
    var ul = $('key-list');
    var items = [
      ['mark-start', 'start pit, or pit emptied by the opening (dashed ring)'],
      ['mark-placed', 'pit filled by the opening (dotted ring, stones put)'],
      ['mark-lap', 'laps, numbered in order'],
      ['mark-end', 'end pit (thick ring)'],
      ['mark-captured', 'captured pit (cross, stones taken)'],
      ['mark-bonus', 'bonus pit (dotted square, stones taken)'],
      ['head', 'head (double ring)'],
      ['nki', 'nki pit (*)']
    ];
    items.forEach(function (it) {
      var li = h('li');
      var svg = s('svg', { width: 28, height: 24, viewBox: '0 0 28 24', 'aria-hidden': 'true' });
      var pit = { x: 14, y: 12, r: 7 };
      if (it[0] === 'mark-lap') {
        s('path', { 'class': 'mark-lap', d: 'M3,18 Q14,2 25,18' }, svg);
        s('circle', { 'class': 'lap-badge', cx: 14, cy: 10, r: 6 }, svg);
        s('text', { 'class': 'lap-badge-n', x: 14, y: 13 }, svg).textContent = '1';
      } else {
        s('circle', { 'class': 'key-pit' + (it[0] === 'head' ? ' key-head' : '') + (it[0] === 'nki' ? ' key-nki' : ''), cx: 14, cy: 12, r: 7 }, svg);
        if (it[0] === 'mark-start') ring(svg, pit, 'mark-start', 2);
        if (it[0] === 'mark-placed') ring(svg, pit, 'mark-placed', 2);
        if (it[0] === 'mark-end') { ring(svg, pit, 'mark-end', 3); }
        if (it[0] === 'head') s('circle', { 'class': 'key-pit-inner', cx: 14, cy: 12, r: 4.5 }, svg);
        if (it[0] === 'nki') s('text', { 'class': 'nki-mark', x: 16, y: 11 }, svg).textContent = '*';
        if (it[0] === 'mark-captured') s('path', { 'class': 'mark-captured', d: 'M9,7 L19,17 M19,7 L9,17' }, svg);
        if (it[0] === 'mark-bonus') s('rect', { 'class': 'mark-bonus', x: 5, y: 3, width: 18, height: 18, rx: 3 }, svg);
      }
      li.appendChild(svg);
      li.appendChild(document.createTextNode(' ' + it[1]));
      ul.appendChild(li);
    });
  }

  function openGame(n) {
    var G = gameData(n);
    current = { n: n, G: G };
    var board = loadBoard(G);
    current.board = board;
    current.links = buildMoves(G, n);
    buildHeader(G, n);
    var links = document.querySelectorAll('#game-list a');
    for (var i = 0; i < links.length; i++) {
      if (i === n - 1) links[i].setAttribute('aria-current', 'true');
      else links[i].removeAttribute('aria-current');
    }
  }

  function render(announce) {
    var G = current.G;
    var last = lastOf(L);
    ply = Math.max(L.base, Math.min(ply, last));
    var k = Math.min(ply - L.base, L.positions.length - 1);
    var i = ply - L.base - 1;
    var P = i >= 0 && i < L.plies.length ? L.plies[i] : null;
    if (k >= 0) {
      showPosition(current.board, G, parsePosition(L.positions[k]), L.positions[k]);
      showSowing(current.board, P);
    }
    $('slider').min = String(L.base);
    $('slider').max = String(last);
    $('slider').value = String(ply);
    $('slider').setAttribute('aria-valuetext', ply === 0 ? 'start position' : 'ply ' + ply);
    $('first').disabled = $('prev').disabled = ply === L.base;
    $('next').disabled = $('last').disabled = ply === last;
    var here = (L.v === null ? 'm' : L.v) + ':' + ply;
    for (var p in current.links) {
      var a = current.links[p];
      if (p === here) a.setAttribute('aria-current', 'step');
      else a.removeAttribute('aria-current');
    }
    showDetail(G, P);
    var text = statusText(G, P);
    $('status').textContent = announce === false ? '' : text;
    document.body.setAttribute('data-game', String(current.n));
    document.body.setAttribute('data-ply', String(ply));
    document.body.setAttribute('data-line', L.v === null ? 'main' : String(L.v + 1));
    var hash = address(current.n, ply, L.v);
    if (location.hash !== hash) {
      try { history.replaceState(null, '', hash); } catch (e) { /* a page without history */ }
    }
  }

  function go(n, p, v) {
    n = Math.max(1, Math.min(n, index.games.length));
    if (!current || current.n !== n) openGame(n);
    L = lineOf(current.G, v === undefined ? null : v);
    ply = p;
    render();
  }

  function step(delta) { go(current.n, ply + delta, L.v); }

  function fromHash() {
    var g = /[#&]g=(\d+)/.exec(location.hash);
    var p = /[#&]p=(\d+)/.exec(location.hash);
    var v = /[#&]v=(\d+)/.exec(location.hash);
    go(g ? parseInt(g[1], 10) : 1, p ? parseInt(p[1], 10) : 0, v && +v[1] > 0 ? parseInt(v[1], 10) - 1 : null);
  }

  $('page-title').textContent = index.title;
  buildGameList();
  buildKey();
  $('first').addEventListener('click', function () { go(current.n, L.base, L.v); });
  $('prev').addEventListener('click', function () { step(-1); });
  $('next').addEventListener('click', function () { step(1); });
  $('last').addEventListener('click', function () { go(current.n, lastOf(L), L.v); });
  $('slider').addEventListener('input', function () { go(current.n, parseInt(this.value, 10), L.v); });
  window.addEventListener('hashchange', fromHash);
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
    var moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (e.key in moves) step(moves[e.key]);
    else if (e.key === 'Home') go(current.n, L.base, L.v);
    else if (e.key === 'End') go(current.n, lastOf(L), L.v);
    else return;
    e.preventDefault();
  });
  fromHash();
})();
