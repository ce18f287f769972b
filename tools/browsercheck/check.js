#!/usr/bin/env node
// check.js: open executed notebooks in the classic Jupyter Notebook UI in
// headless Chromium and check what a reader sees (scripts/browsercheck.sh
// serves the notebooks and calls this; see `make browsercheck`).
//
//   node check.js --url http://127.0.0.1:PORT --token TOKEN --out DIR [--repo ROOT] NAME.ipynb...
//
// Fails (exit 1) on, per notebook:
//   - any error output: an error or stderr stream output, or an error shown
//     by lab.Show (its red error box);
//   - any output element wider than its cell (scrollWidth > clientWidth of
//     an output area, or a child reaching past its right edge);
//   - a code line cut at the right of its cell (the editor scrolls);
//   - NaN, Inf or float noise (1.78e-15, 0.30000000000000004, 2.77e+09 in
//     a table) in an HTML table or a text output;
//   - a raw source dump in an output: Graphviz DOT, or JSON over 4 kB;
//   - a character a reader sees as a box, in any output or markdown cell:
//     one the page's fonts cannot draw (tofu: the font's missing-glyph box,
//     or a fallback font's box of hex digits for a code point newer than
//     the font), or a letter the only font that has it draws inside a
//     dashed frame (Unifont's U+0CF1, U+0CF2 of Base2048 replays);
//   - an SVG text that is a decimal number with more than 6 significant
//     digits (float noise such as 9.999999999999999e+26);
//   - two texts (labels, titles: not only numbers) of one SVG picture whose
//     boxes overlap, a text clipped by its picture's edge, or a text wider
//     than the box (rect) it sits in;
//   - a chart whose points all sit within a few percent of one corner, or
//     all on one line hugging an axis;
//   - a repository path cited in a markdown cell (as `code` or a relative
//     link) that does not exist under ROOT (--repo; bin/, .cache/ and
//     absolute paths are not checked);
//   - more than one progress bar left in a finished cell;
//   - an output folded into a scroll box, or a file of the page that the
//     server answers 404 (the widgets extension);
//   - a line of a markdown cell or an output that runs past its cell (an
//     unbreakable inline code, a wide table), or a markdown code block that
//     scrolls;
//   - a number broken across two lines ("p = 2.3e-" over "5", "[0.2" over
//     "9, 0.51]", "3.9·" over "10⁻⁵"), or a comparison sign cut from its
//     number ("p <" over "10⁻¹²", "≥" over "0.001"; not "="), in a table, a text
//     output or a markdown cell;
//   - a verdict beside an interval that says otherwise: "no difference"
//     next to an interval that excludes 0 ([+1.00, +2.00], "allows +0.65 to
//     +2.65"), or "better"/"worse" next to one that holds 0.
// Screenshots go to DIR as viewport tiles of 1200x1000 px: NAME-01.png,
// NAME-02.png ... (at most 60 a notebook).
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

function parseArgs(argv) {
  const a = { url: '', token: '', out: '', repo: '', notebooks: [], chromium: process.env.CHROMIUM || '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--url') a.url = argv[++i];
    else if (v === '--token') a.token = argv[++i];
    else if (v === '--out') a.out = argv[++i];
    else if (v === '--chromium') a.chromium = argv[++i];
    else if (v === '--repo') a.repo = argv[++i];
    else a.notebooks.push(v);
  }
  if (!a.url || !a.out || a.notebooks.length === 0) {
    console.error('usage: node check.js --url URL --token TOKEN --out DIR [--repo ROOT] NAME.ipynb...');
    process.exit(2);
  }
  return a;
}

// Runs in the page: returns a list of problems found in the rendered notebook.
function inspect() {
  // Runs in the page: characters a reader sees as boxes. Each distinct
  // non-ASCII character of the notebook's text is drawn alone on a canvas,
  // 32 px, in its element's font (the page's fallback fonts included), and
  // reported when it is drawn as:
  //   - the font stack's missing-glyph box (.notdef): pixel for pixel the
  //     drawing of U+10FFFD (private use) or the noncharacters U+FDD0, U+FDEF;
  //   - the placeholder a fallback font draws for a code point it does not
  //     know (Unifont 15: a black box with the code's hex digits, so each
  //     such character looks different): like the drawing of the unassigned
  //     U+0378, U+0379, U+0380 or U+05FF, its ink box of the same size (2 px
  //     slack), filled as densely (within 0.08: a plain black square is not)
  //     and overlapping it (IoU >= 0.75);
  //   - a letter or digit inside a dashed frame (Unifont's drawing of signs
  //     it shows as special: U+0CF1, U+0CF2, the Hangul fillers): all four
  //     edges of its ink box dashed (35-65% inked, in 5 dashes or more), the
  //     box at least 0.6 em each way (symbols such as the dotted square
  //     U+2B1A are drawn so on purpose and are not checked).
  // Every assigned character up to U+2FFFF drawn so in this lab's fonts
  // (DejaVu and Unifont 15, monospace and sans-serif) is found and no other.
  function tofu() {
    const problems = [];
    const byFont = new Map(); // font-family -> Map(char -> cell)
    const cells = Array.from(document.querySelectorAll('#notebook-container .cell'));
    cells.forEach((cell, ci) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const t = n.nodeValue;
        if (!/[^\x00-\x7f]/.test(t)) continue;
        const el = n.parentElement;
        if (!el || el.closest('.CodeMirror-measure, script, style')) continue;
        const fam = getComputedStyle(el).fontFamily;
        if (!byFont.has(fam)) byFont.set(fam, new Map());
        const m = byFont.get(fam);
        for (const ch of t) {
          if (ch.charCodeAt(0) < 0x80 || m.has(ch)) continue;
          if (/[\p{M}\p{Cf}\p{Z}\p{Cc}]/u.test(ch)) continue;
          m.set(ch, ci + 1);
        }
      }
    });
    const boxes = boxedGlyphs();
    const hex = (ch) => `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    for (const [fam, m] of byFont) {
      const found = boxes(fam, [...m.keys()]);
      const report = (bad, one, many, fix) => {
        if (!bad.length) return;
        const hit = [...new Set(bad.map((ch) => m.get(ch)))].sort((a, b) => a - b);
        const sample = bad.slice(0, 8).map((ch) => `${ch} ${hex(ch)}`).join(', ');
        problems.push(`cell${hit.length > 1 ? 's' : ''} ${hit.slice(0, 5).join(', ')}: ${bad.length === 1 ? one : `${bad.length} ${many}`}, in ${fam.slice(0, 40)}: ${sample} (${fix} ${bad.length === 1 ? 'it' : 'them'}: scripts/setup.sh)`);
      };
      report(found.missing, "a character has no glyph in the page's fonts (drawn as an empty box or a box of hex digits)",
        "characters have no glyph in the page's fonts (drawn as empty boxes or boxes of hex digits)", 'install a font that covers');
      report(found.framed, 'a character is drawn as a dashed box by the only font that has it',
        'characters are drawn as dashed boxes by the only font that has them', 'install a font that draws');
    }
    return problems;
  }

  // boxedGlyphs returns boxes(fam, chars): of chars, those drawn in the
  // font stack fam as a missing glyph (missing) or inside a dashed frame
  // (framed); see tofu.
  function boxedGlyphs() {
    const W = 96, H = 64, S = 32;
    const canvas = document.createElement('canvas');
    canvas.width = W; canvas.height = H;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    // draw returns ch's ink in fam: a mask, its box, its pixel count and the raw pixels.
    const draw = (fam, ch) => {
      ctx.clearRect(0, 0, W, H);
      ctx.font = `${S}px ${fam}`;
      ctx.fillStyle = '#000';
      ctx.textBaseline = 'middle';
      ctx.fillText(ch, 8, H / 2);
      const d = ctx.getImageData(0, 0, W, H).data;
      const m = new Uint8Array(W * H);
      let x0 = W, y0 = H, x1 = -1, y1 = -1, ink = 0;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          if (d[(y * W + x) * 4 + 3] < 128) continue;
          m[y * W + x] = 1;
          ink++;
          x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
        }
      }
      const w = x1 - x0 + 1, h = y1 - y0 + 1;
      return { m, x0, y0, x1, y1, w, h, ink, density: ink ? ink / (w * h) : 0, key: d.join(',') };
    };
    // Overlap of two inks with their boxes' top-left corners together.
    const iou = (a, b) => {
      let both = 0, any = 0;
      for (let y = 0; y < Math.max(a.h, b.h); y++) {
        for (let x = 0; x < Math.max(a.w, b.w); x++) {
          const pa = x < a.w && y < a.h && a.m[(a.y0 + y) * W + a.x0 + x];
          const pb = x < b.w && y < b.h && b.m[(b.y0 + y) * W + b.x0 + x];
          if (pa && pb) both++;
          if (pa || pb) any++;
        }
      }
      return any ? both / any : 0;
    };
    const placeholder = (g, r) => r.ink > 0 && g.ink > 0 && Math.abs(g.w - r.w) <= 2 && Math.abs(g.h - r.h) <= 2 &&
      Math.abs(g.density - r.density) <= 0.08 && iou(g, r) >= 0.75;
    // An edge of the ink box (2 px deep) is dashed when 35-65% of it is
    // inked, in 5 dashes or more.
    const dashed = (n, inked) => {
      let cov = 0, runs = 0, prev = false;
      for (let i = 0; i < n; i++) {
        const v = inked(i);
        if (v) cov++;
        if (v && !prev) runs++;
        prev = v;
      }
      return runs >= 5 && cov >= 0.35 * n && cov <= 0.65 * n;
    };
    const framed = (g) => {
      if (!g.ink || g.w < 0.6 * S || g.h < 0.6 * S) return false;
      const px = (x, y) => g.m[y * W + x] === 1;
      return dashed(g.w, (i) => px(g.x0 + i, g.y0) || px(g.x0 + i, g.y0 + 1)) &&
        dashed(g.w, (i) => px(g.x0 + i, g.y1) || px(g.x0 + i, g.y1 - 1)) &&
        dashed(g.h, (i) => px(g.x0, g.y0 + i) || px(g.x0 + 1, g.y0 + i)) &&
        dashed(g.h, (i) => px(g.x1, g.y0 + i) || px(g.x1 - 1, g.y0 + i));
    };
    return (fam, chars) => {
      const notdef = ['\u{10fffd}', '\ufdd0', '\ufdef'].map((c) => draw(fam, c));
      const unknown = ['\u0378', '\u0379', '\u0380', '\u05ff'].map((c) => draw(fam, c));
      const out = { missing: [], framed: [] };
      for (const ch of chars) {
        const g = draw(fam, ch);
        if (notdef.concat(unknown).some((r) => r.key === g.key || placeholder(g, r))) out.missing.push(ch);
        else if (/[\p{L}\p{N}]/u.test(ch) && framed(g)) out.framed.push(ch);
      }
      return out;
    };
  }

  // Lines of markdown cells that run past the cell: an element whose right
  // edge passes the rendered cell's, or a code block that scrolls.
  function overflowingLines(cells) {
    const out = [];
    cells.forEach((cell, ci) => {
      const md = cell.querySelector('.text_cell_render');
      if (!md || cell.classList.contains('code_cell')) return;
      const right = md.getBoundingClientRect().right;
      for (const el of md.querySelectorAll('p, li, code, pre, table, img, a, span, td, th, blockquote, h1, h2, h3, h4')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > right + 1) {
          out.push(`cell ${ci + 1}: a line runs ${Math.round(r.right - right)} px past the cell (a <${el.tagName.toLowerCase()}> ${Math.round(r.width)} px wide): "${el.textContent.trim().slice(0, 40)}…"`);
          return;
        }
        if (el.tagName === 'PRE' && el.scrollWidth > el.clientWidth + 1) {
          out.push(`cell ${ci + 1}: a code block scrolls: ${el.scrollWidth} px of text in ${el.clientWidth} px`);
          return;
        }
      }
    });
    return out;
  }

  // Numbers broken across two lines: each number token of the text of
  // tables, text outputs and markdown ("0.9" / "999", "[0.2" / "9, 0.51]")
  // is measured with a Range; its boxes on two lines mean the reader sees it
  // cut in two. An interval may wrap at the space after its comma, as any
  // list does; neither of its numbers may. A power of ten in the lab's form
  // is one number with its mantissa and exponent: "3.9·10⁻⁵" cut as "3.9·"
  // over "10⁻⁵" or "3.9·10" over "⁻⁵", "p < 10⁻¹²" as "10" over "⁻¹²"
  // (× as well as ·). A comparison keeps its number too: "p <" at the end
  // of one line and "10⁻¹²" at the start of the next is cut in two
  // (comparisons below).
  const numberRE = /[-+\u2212]?\d[\d,]*(?:\.\d+)?(?:e[-+\u2212]?\d+|(?:[\u00b7\u00d7]10)?[\u207a\u207b]?[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)?/gi;
  // A comparison sign (<, >, ≤, ≥, and <=, >=) followed, after spaces
  // only, by a number (digits with a sign or not; 10⁻¹² starts with its
  // digits). Not part of an arrow or another operator (->, =>, <<, <>):
  // only a sign that stands alone is a comparison. "=" is not checked: "p ="
  // over "0.36" reads as one phrase, and prose breaks there in every
  // notebook; "p <" over "10⁻¹²" reads as a bound cut from its number.
  const comparisonRE = /(?<![-=<>!:])(?:[<>]=|[<>\u2264\u2265])(?![=<>])/g;
  const numberStartRE = /^[-+\u2212]?\d/;
  // lineBox is the element a text is laid out in: its nearest ancestor that
  // is not inline (a paragraph, a table cell, a div). A sign and a number in
  // two of them (two table cells, two rows) are not one phrase.
  const lineBox = (n) => {
    let e = n.parentElement;
    while (e && ['inline', 'contents'].includes(getComputedStyle(e).display)) e = e.parentElement;
    return e;
  };
  const firstRect = (node, from, to) => {
    const r = document.createRange();
    r.setStart(node, from);
    r.setEnd(node, to);
    return Array.from(r.getClientRects()).find((x) => x.width > 0.5);
  };
  // comparisons returns the signs of text node n whose number starts the
  // next line. The number may be in the same text node or, after spaces, in
  // the next ones of the same line box ("p &lt; <b>0.001</b>"). A line break
  // the text itself holds (a newline in a <pre>) is the author's: only a
  // break the browser made by wrapping is reported.
  function comparisons(n, next) {
    const out = [];
    const t = n.nodeValue;
    comparisonRE.lastIndex = 0;
    for (let m = comparisonRE.exec(t); m; m = comparisonRE.exec(t)) {
      const end = m.index + m[0].length;
      let gap = '', numNode = n, at = end, rest = t.slice(end);
      let hops = 0;
      // Spaces, then the number; across text nodes when this one ends in spaces.
      for (;;) {
        const sp = /^\s*/.exec(rest)[0];
        gap += sp;
        if (sp.length < rest.length) { at += sp.length; rest = rest.slice(sp.length); break; }
        const nx = hops++ < 3 ? next(numNode) : null;
        if (!nx || lineBox(nx) !== lineBox(n)) { rest = ''; break; }
        numNode = nx; at = 0; rest = nx.nodeValue;
      }
      if (!numberStartRE.test(rest)) continue;
      if (gap.includes('\n') && /^pre/.test(getComputedStyle(n.parentElement).whiteSpace)) continue;
      numberRE.lastIndex = 0;
      const num = numberRE.exec(rest);
      if (!num || num.index !== 0) continue;
      const sign = firstRect(n, m.index, end);
      const first = firstRect(numNode, at, at + num[0].length);
      if (!sign || !first) continue;
      if (first.top - sign.top > Math.min(sign.height, first.height) / 2) {
        out.push(`the comparison "${m[0]} ${num[0]}" is broken across two lines ("${t.slice(0, end).trimStart().slice(-12)}" ends a line)`);
      }
    }
    return out;
  }
  function splitNumbers(cells) {
    const out = [];
    cells.forEach((cell, ci) => {
      const roots = cell.querySelectorAll('.text_cell_render, .output_subarea');
      let found = 0;
      const seen = new Set(); // a repeated phrase is reported once
      for (const root of roots) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const texts = [];
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.parentElement.closest('svg, script, style, .CodeMirror')) texts.push(n);
        }
        const index = new Map(texts.map((n, i) => [n, i]));
        const next = (n) => texts[index.get(n) + 1] || null;
        for (const n of texts) {
          if (found >= 3) break;
          for (const p of comparisons(n, next)) {
            if (found < 3 && !seen.has(p)) { seen.add(p); out.push(`cell ${ci + 1}: ${p}`); found++; }
          }
          const t = n.nodeValue;
          numberRE.lastIndex = 0;
          for (let m = numberRE.exec(t); m && found < 3; m = numberRE.exec(t)) {
            // A sign after a letter or digit is a hyphen (gen-05, 2025-04-08): not the number's.
            let start = m.index;
            if (/^[-+\u2212]/.test(m[0]) && start > 0 && /[\p{L}\p{N}]/u.test(t[start - 1])) start++;
            if (m.index + m[0].length - start < 2) continue;
            const range = document.createRange();
            range.setStart(n, start);
            range.setEnd(n, m.index + m[0].length);
            const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0.5);
            if (rects.length < 2) continue;
            const h = Math.min(...rects.map((r) => r.height));
            const tops = rects.map((r) => r.top);
            if (Math.max(...tops) - Math.min(...tops) > h / 2) {
              out.push(`cell ${ci + 1}: the number "${t.slice(start, m.index + m[0].length)}" is broken across two lines`);
              found++;
            }
          }
        }
      }
    });
    return out;
  }

  // A verdict beside an interval that says otherwise, within one table row,
  // one line of text output, or one paragraph or list item of markdown:
  // each verdict is paired with the interval nearest to it.
  const num = (x) => parseFloat(x.replace(/\u2212/g, '-').replace(/,/g, ''));
  const intervalRE = /\[\s*([-+\u2212]?\d[\d,]*(?:\.\d+)?)\s*,\s*([-+\u2212]?\d[\d,]*(?:\.\d+)?)\s*\]|allows\s+([-+\u2212]?\d[\d,]*(?:\.\d+)?)\s+to\s+([-+\u2212]?\d[\d,]*(?:\.\d+)?)/gi;
  const noDiffRE = /\bno difference\b|\bnot significant\b/gi;
  const diffRE = /\b(?:better|worse) than\b|\bsignificantly (?:better|worse|higher|lower)\b/gi;
  function verdictProblems(text) {
    const ivs = [];
    intervalRE.lastIndex = 0;
    for (let m = intervalRE.exec(text); m; m = intervalRE.exec(text)) {
      const lo = num(m[1] !== undefined ? m[1] : m[3]), hi = num(m[2] !== undefined ? m[2] : m[4]);
      if (!isNaN(lo) && !isNaN(hi)) ivs.push({ at: m.index, end: m.index + m[0].length, lo, hi, s: m[0] });
    }
    if (!ivs.length) return [];
    const out = [];
    const nearest = (at) => ivs.reduce((a, b) => (Math.min(Math.abs(b.at - at), Math.abs(b.end - at)) < Math.min(Math.abs(a.at - at), Math.abs(a.end - at)) ? b : a));
    for (const [re, bad, why] of [[noDiffRE, (iv) => iv.lo > 0 || iv.hi < 0, 'excludes 0'], [diffRE, (iv) => iv.lo <= 0 && iv.hi >= 0, 'holds 0']]) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const iv = nearest(m.index);
        if (bad(iv)) out.push(`"${m[0]}" beside the interval ${iv.s.trim()}, which ${why}: "${text.trim().replace(/\s+/g, ' ').slice(0, 120)}"`);
      }
    }
    return out;
  }
  function contradictions(cells) {
    const out = [];
    cells.forEach((cell, ci) => {
      const blocks = [];
      cell.querySelectorAll('.output_subarea tr, .text_cell_render tr').forEach((e) => blocks.push(e.textContent));
      // Prose: each sentence or clause on its own (a paragraph may hold several verdicts).
      cell.querySelectorAll('.text_cell_render p, .text_cell_render li, .output_subarea p, .output_subarea li').forEach((e) => {
        if (!e.querySelector('p, li')) blocks.push(...e.textContent.split(/(?<=[.;:])\s+(?=[A-Z(*])|;\s+/));
      });
      cell.querySelectorAll('.output_text pre, .output_stream pre, .output_subarea .hatelab-note').forEach((e) => blocks.push(...e.textContent.split('\n')));
      cell.querySelectorAll('.output_html').forEach((e) => { if (!e.querySelector('tr')) blocks.push(...e.innerText.split('\n')); });
      const seen = new Set();
      for (const b of blocks) {
        for (const p of verdictProblems(b)) {
          if (!seen.has(p) && seen.size < 3) { seen.add(p); out.push(`cell ${ci + 1}: a verdict contradicts its interval: ${p}`); }
        }
      }
    });
    return out;
  }

  const problems = [];
  const cited = [];
  const cells = Array.from(document.querySelectorAll('#notebook-container .cell'));
  const sigDigits = (s) => {
    // A number as a label may carry commas, a sign, a minus sign, a percent.
    let t = s.replace(/[\u2212]/g, '-').replace(/,/g, '').replace(/%$/, '').trim();
    const m = t.match(/^[-+]?(\d*\.?\d*)(?:[eE][-+]?\d+)?$/);
    if (!m || !/\d/.test(m[1])) return 0;
    let mant = m[1];
    const hasPoint = mant.includes('.');
    mant = mant.replace('.', '').replace(/^0+/, '');
    if (!hasPoint) mant = mant.replace(/0+$/, '');
    return mant.length;
  };
  const isNumeric = (s) => sigDigits(s) > 0 || /^10[\u207b\u2070-\u2079\u00b9\u00b2\u00b3]+$/.test(s.trim());
  cells.forEach((cell, ci) => {
    const where = `cell ${ci + 1}`;
    if (!cell.classList.contains('code_cell')) {
      // Repository paths cited in markdown: `code` spans that look like
      // paths, and relative links (checked by the caller, which sees the disk).
      cell.querySelectorAll('.text_cell_render code').forEach((c) => {
        // A path inside a link to another site names that site's file.
        const a = c.closest('a[href]');
        if (a && /^[a-z]+:/i.test(a.getAttribute('href'))) return;
        const t = c.textContent.trim().replace(/\s*§.*$/, '');
        if (/^[A-Za-z0-9_.*-]+(?:\/[A-Za-z0-9_.*-]+)+\/?$/.test(t) || /^[A-Za-z0-9_.-]+\.(?:md|json|jsonl|csv|txt|go|svg|ipynb|hlnn|py|sh|bin)$/.test(t)) {
          cited.push({ where, path: t });
        }
      });
      cell.querySelectorAll('.text_cell_render a[href]').forEach((a) => {
        const h = a.getAttribute('href');
        if (h && !/^(?:[a-z]+:|#|\/)/i.test(h)) cited.push({ where, path: 'notebooks/' + h.replace(/[#?].*$/, ''), link: true });
      });
      return;
    }
    cell.querySelectorAll('.output_error').forEach((e) => problems.push(`${where}: error output: ${e.innerText.slice(0, 200)}`));
    cell.querySelectorAll('.output_stderr').forEach((e) => {
      const t = e.innerText.trim();
      if (t) problems.push(`${where}: stderr output: ${t.slice(0, 200)}`);
    });
    cell.querySelectorAll('.output_subarea div[style*="#b00020"]').forEach((e) => problems.push(`${where}: error shown: ${e.innerText.slice(0, 200)}`));
    cell.querySelectorAll('.output_area').forEach((area, ai) => {
      const sub = area.querySelector('.output_subarea') || area;
      if (sub.scrollWidth > sub.clientWidth + 1) {
        problems.push(`${where}, output ${ai + 1}: content ${sub.scrollWidth} px wide in a ${sub.clientWidth} px output area`);
        return;
      }
      const right = sub.getBoundingClientRect().right;
      for (const el of sub.querySelectorAll('svg, img, table, pre, div')) {
        if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
        if (el.parentElement && el.parentElement.closest('svg')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > right + 1) {
          problems.push(`${where}, output ${ai + 1}: a <${el.tagName.toLowerCase()}> reaches ${Math.round(r.right - right)} px past the output area`);
          break;
        }
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && el.clientWidth > 0) {
          problems.push(`${where}, output ${ai + 1}: a <${el.tagName.toLowerCase()}> scrolls: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
          break;
        }
      }
    });
    // Only top-level pictures: nested <svg> (filmstrip frames) belong to them.
    cell.querySelectorAll('.output_subarea svg').forEach((svg, si) => {
      if (svg.parentElement.closest('svg')) return;
      const pic = `${where}, picture ${si + 1}`;
      const box = svg.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return;
      const texts = [];
      svg.querySelectorAll('text').forEach((t) => {
        const s = t.textContent.trim();
        if (!s) return;
        // A float's noise: a point or an exponent (a 10-digit whole number, or a row shape 0111111110, is not).
        if (/[.eE]/.test(s) && sigDigits(s) > 6) problems.push(`${pic}: label "${s}" is float noise (${sigDigits(s)} significant digits)`);
        if (/^(?:[-+\u2212]?(?:NaN|Inf|Infinity))$/.test(s)) problems.push(`${pic}: label "${s}"`);
        const r = t.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) texts.push({ s, r, t });
      });
      // Clipped by the picture's edge (half a glyph's slack: glyph boxes
      // include line spacing).
      let clipped = 0;
      for (const x of texts) {
        const slackY = x.r.height * 0.3;
        if (x.r.left < box.left - 1 || x.r.right > box.right + 1 || x.r.top < box.top - slackY || x.r.bottom > box.bottom + slackY) {
          if (clipped++ < 3) problems.push(`${pic}: text "${x.s.slice(0, 40)}" is clipped by the picture's edge`);
        }
      }
      // Wider than the box it sits in: a <rect> (not the background) that
      // holds the text's centre and is less than a quarter of the picture.
      const rects = Array.from(svg.querySelectorAll('rect')).map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0 && r.width * r.height < box.width * box.height / 4);
      let unfit = 0;
      for (const x of texts) {
        const cx = (x.r.left + x.r.right) / 2, cy = (x.r.top + x.r.bottom) / 2;
        let best = null;
        for (const r of rects) {
          if (cx > r.left && cx < r.right && cy > r.top && cy < r.bottom && (!best || r.width * r.height < best.width * best.height)) best = r;
        }
        const w = x.r.width;
        if (best && w > best.width + 1 && unfit++ < 3) {
          problems.push(`${pic}: text "${x.s.slice(0, 40)}" (${Math.round(w)} px) does not fit its ${Math.round(best.width)} px box`);
        }
      }
      // Overlapping texts: a sweep over the texts sorted by left edge.
      texts.sort((a, b) => a.r.left - b.r.left);
      let overlaps = 0;
      for (let i = 0; i < texts.length && overlaps < 3; i++) {
        const a = texts[i].r;
        for (let j = i + 1; j < texts.length && texts[j].r.left < a.right; j++) {
          const b = texts[j].r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          // Glyph boxes include line spacing: ignore a sliver of overlap.
          if (w > 1.5 && h > Math.min(a.height, b.height) * 0.35) {
            problems.push(`${pic}: texts "${texts[i].s.slice(0, 30)}" and "${texts[j].s.slice(0, 30)}" overlap`);
            overlaps++;
            break;
          }
        }
      }
      // Crammed points: a chart's markers (small closed paths and circles,
      // as gonum/plot draws glyphs) all within a few percent of one corner,
      // or all on one line hugging an axis.
      const marks = [];
      svg.querySelectorAll('circle, path').forEach((e) => {
        if (e.tagName.toLowerCase() === 'path' && !/[zZ]\s*$/.test(e.getAttribute('d') || '')) return;
        const fill = e.getAttribute('fill') || getComputedStyle(e).fill;
        if (!fill || fill === 'none') return;
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.width < 12 && r.height > 0 && r.height < 12) marks.push(r);
      });
      if (marks.length >= 5) {
        const xs = marks.map((r) => (r.left + r.right) / 2), ys = marks.map((r) => (r.top + r.bottom) / 2);
        const sx = (Math.max(...xs) - Math.min(...xs)) / box.width, sy = (Math.max(...ys) - Math.min(...ys)) / box.height;
        const mx = (Math.min(...xs) - box.left) / box.width, my = (box.bottom - Math.max(...ys)) / box.height;
        if (sx < 0.06 && sy < 0.06) {
          problems.push(`${pic}: all ${marks.length} points sit in ${Math.round(sx * 100)}% x ${Math.round(sy * 100)}% of the chart: a corner (choose the axes' ranges or scales)`);
        } else if ((sx < 0.02 && mx < 0.2) || (sy < 0.02 && my < 0.2)) {
          problems.push(`${pic}: all ${marks.length} points sit on one line along an axis (choose the axes' ranges or scales)`);
        }
      }
    });
    // Code lines cut at the right: the editor scrolls sideways.
    cell.querySelectorAll('.input_area .CodeMirror-scroll').forEach((sc) => {
      if (sc.scrollWidth > sc.clientWidth + 2) {
        let longest = '';
        cell.querySelectorAll('.CodeMirror-line').forEach((l) => { if (l.textContent.length > longest.length) longest = l.textContent; });
        problems.push(`${where}: a code line is cut at the right (${sc.scrollWidth} px of code in ${sc.clientWidth} px): "${longest.trim().slice(0, 60)}…"`);
      }
    });
    // NaN, Inf, float noise in tables and text outputs; raw source dumps.
    const noise = /(?:^|[^\w.])(?:[-+\u2212]?\d\.\d+e[-\u2212](?:1\d|[2-9]\d|\d{3})|\d*\.\d*(?:0{7,}|9{7,})[1-9]\d*)(?![\w.])/i;
    const nanInf = /(?:^|[^\w])(?:[-+\u2212]?(?:NaN|Inf|Infinity|\+Inf))(?![\w])/;
    // A column headed "p" ("Wilcoxon p", "Holm p") holds p-values: 6.7e-12 there is a
    // measurement (the arena writes "< 1e-12" below its floor), not noise.
    const pColumn = (td) => {
      const row = td.parentElement, table = td.closest('table');
      if (!row || !table) return false;
      const head = table.querySelector('thead tr') || table.querySelector('tr');
      const th = head && head.children[Array.prototype.indexOf.call(row.children, td)];
      return !!th && th !== td && /(?:^|\s)p$/i.test(th.textContent.trim());
    };
    cell.querySelectorAll('.output_subarea td, .output_subarea th').forEach((td) => {
      const t = td.textContent.trim();
      if (nanInf.test(t)) problems.push(`${where}: table cell "${t.slice(0, 40)}" (NaN or Inf: say what is missing)`);
      else if (noise.test(t) && !pColumn(td)) problems.push(`${where}: table cell "${t.slice(0, 40)}" is float noise`);
      else if (/^[-+\u2212]?\d(?:\.\d+)?e\+\d+$/i.test(t)) problems.push(`${where}: table cell "${t}" in exponent form (write it in full, with thousands commas)`);
    });
    cell.querySelectorAll('.output_text pre, .output_stream pre').forEach((pre) => {
      const t = pre.textContent;
      for (const line of t.split('\n')) {
        if (nanInf.test(line)) { problems.push(`${where}: text output shows NaN or Inf: "${line.trim().slice(0, 80)}"`); break; }
        if (noise.test(line)) { problems.push(`${where}: text output shows float noise: "${line.trim().slice(0, 80)}"`); break; }
      }
      if (/(?:^|\n)\s*(?:strict\s+)?(?:di)?graph\s+[\w"]*\s*\{/.test(t) || /"\s*->\s*"[^\n]*\[/.test(t)) {
        problems.push(`${where}: an output prints Graphviz DOT source (${t.length} bytes): draw it instead`);
      } else if (t.length > 4096 && /^\s*[\[{]\s*["{\[]/.test(t)) {
        problems.push(`${where}: an output prints ${t.length} bytes of JSON: show a table instead`);
      }
    });
    if (cell.querySelector('.output_scroll')) problems.push(`${where}: an output is folded into a scroll box (the lab's settings show outputs whole: scripts/jupyter)`);
    const bars = cell.querySelectorAll('.output_area progress').length;
    if (bars > 1) problems.push(`${where}: ${bars} progress bars left in a finished cell (want at most one)`);
  });
  problems.push(...overflowingLines(cells));
  problems.push(...splitNumbers(cells));
  problems.push(...contradictions(cells));
  problems.push(...tofu());
  return { problems, cited, cells: cells.length };
}

// citedMissing returns the cited paths that exist nowhere in the
// repository's files (git ls-files, folders included; * in a path is a
// wildcard; a bare file name may be anywhere).
function citedMissing(repo, cited) {
  if (!repo || cited.length === 0) return [];
  let files;
  try {
    files = require('child_process').execFileSync('git', ['-C', repo, 'ls-files'], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n').filter(Boolean);
  } catch (e) {
    return [`cannot list the repository's files: ${e.message.split('\n')[0]}`];
  }
  const all = new Set(files);
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) all.add(parts.slice(0, i).join('/'));
  }
  const names = new Set(files.map((f) => f.split('/').pop()));
  const exists = (p) => {
    p = p.replace(/\/+$/, '').replace(/^\.\//, '');
    if (p.startsWith('bin/') || p.startsWith('.cache/') || p.startsWith('.lab-notebooks/') || p.startsWith('.lab-notebooks-quick/') || p.startsWith('~') || p.startsWith('$')) return true;
    if (!p.includes('/')) return names.has(p) || all.has(p);
    if (p.includes('*')) {
      const re = new RegExp('^' + p.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*') + '(?:/|$)');
      for (const f of all) if (re.test(f)) return true;
      return false;
    }
    return all.has(p) || all.has('notebooks/' + p) || all.has(require('path').posix.normalize(p));
  };
  const out = [];
  for (const c of cited) {
    if (!exists(c.path)) out.push(`${c.where}: cites ${c.link ? 'a link to ' : ''}${c.path}, which is not in the repository`);
  }
  return [...new Set(out)];
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  fs.mkdirSync(a.out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: a.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars'],
  });
  let failed = 0;
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    for (const nb of a.notebooks) {
      const name = path.basename(nb);
      const page = await context.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      const notFound = [];
      page.on('response', (r) => { if (r.status() === 404) notFound.push(r.url().replace(/[?].*$/, '').replace(a.url, '')); });
      const t0 = Date.now();
      await page.goto(`${a.url}/notebooks/${encodeURIComponent(name)}?token=${a.token}`, { waitUntil: 'load', timeout: 60000 });
      await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 60000 });
      // The lab's settings (scripts/jupyter: code lines wrap) reach the
      // cells' editors after the notebook has loaded: wait for them, or the
      // code-line check races them (a notebook whose settings never arrive
      // is then checked as it shows, unwrapped).
      await page.waitForFunction(() => Jupyter.notebook.get_cells().every((c) => c.cell_type !== 'code' || c.code_mirror.getOption('lineWrapping')),
        null, { timeout: 15000 }).catch(() => {});
      // Never save: the checked notebooks are the caller's files.
      await page.evaluate(() => Jupyter.notebook.set_autosave_interval(0));
      // Let images and fonts settle.
      await page.evaluate(() => document.fonts && document.fonts.ready);
      await page.waitForTimeout(500);
      const { problems, cited, cells } = await page.evaluate(inspect);
      problems.push(...citedMissing(a.repo, cited));
      for (const u of [...new Set(notFound)].slice(0, 5)) problems.push(`the page asked for ${u}: 404 Not Found`);
      // Untrusted notebooks hide their SVG: that would pass the checks vacuously.
      const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
      if (!trusted) problems.push('the notebook is not trusted: its SVG outputs are hidden (run `jupyter trust`)');
      // Viewport tiles (1200x1000): the classic UI scrolls inside #site.
      const base = name.replace(/\.ipynb$/, '');
      const tiles = [];
      const { total, step } = await page.evaluate(() => {
        const site = document.getElementById('site');
        return site ? { total: site.scrollHeight, step: site.clientHeight } : { total: document.body.scrollHeight, step: window.innerHeight };
      });
      for (let i = 0; i * step < total && i < 60; i++) {
        await page.evaluate((y) => { const site = document.getElementById('site'); if (site) site.scrollTop = y; else window.scrollTo(0, y); }, i * step);
        await page.waitForTimeout(50);
        const shot = path.join(a.out, `${base}-${String(i + 1).padStart(2, '0')}.png`);
        await page.screenshot({ path: shot });
        tiles.push(shot);
      }
      const shot = `${tiles.length} tiles ${path.join(a.out, base)}-NN.png`;
      const took = ((Date.now() - t0) / 1000).toFixed(1);
      if (problems.length) {
        failed++;
        console.log(`browsercheck: ${name}: FAIL (${cells} cells, ${took}s), screenshot ${shot}`);
        for (const p of problems) console.log('    ' + p);
      } else {
        console.log(`browsercheck: ${name}: ok (${cells} cells, ${took}s), screenshot ${shot}`);
      }
      if (pageErrors.length) console.log(`    (page script errors, not counted: ${pageErrors.slice(0, 3).join('; ')})`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`browsercheck: ${a.notebooks.length - failed} of ${a.notebooks.length} notebooks ok; screenshots in ${a.out}`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error('browsercheck:', e && e.stack ? e.stack : e);
  process.exit(1);
});
