#!/usr/bin/env node
// check.js: open executed notebooks in the classic Jupyter Notebook UI in
// headless Chromium and check what a reader sees (scripts/browsercheck.sh
// serves the notebooks and calls this; see `make browsercheck`).
//
//   node check.js --url http://127.0.0.1:PORT --token TOKEN --out DIR NAME.ipynb...
//
// Fails (exit 1) on, per notebook:
//   - any error output: an error or stderr stream output, or an error shown
//     by lab.Show (its red error box);
//   - any output element wider than its cell (scrollWidth > clientWidth of
//     an output area, or a child reaching past its right edge);
//   - an SVG text that is a number with more than 6 significant digits
//     (float noise such as 9.999999999999999e+26);
//   - two numeric labels of one SVG picture whose boxes overlap;
//   - more than one progress bar left in a finished cell.
// A full-page screenshot of each notebook goes to DIR/NAME.png.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

function parseArgs(argv) {
  const a = { url: '', token: '', out: '', notebooks: [], chromium: process.env.CHROMIUM || '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--url') a.url = argv[++i];
    else if (v === '--token') a.token = argv[++i];
    else if (v === '--out') a.out = argv[++i];
    else if (v === '--chromium') a.chromium = argv[++i];
    else a.notebooks.push(v);
  }
  if (!a.url || !a.out || a.notebooks.length === 0) {
    console.error('usage: node check.js --url URL --token TOKEN --out DIR NAME.ipynb...');
    process.exit(2);
  }
  return a;
}

// Runs in the page: returns a list of problems found in the rendered notebook.
function inspect() {
  const problems = [];
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
    if (!cell.classList.contains('code_cell')) return;
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
      const labels = [];
      svg.querySelectorAll('text').forEach((t) => {
        const s = t.textContent.trim();
        if (!s) return;
        if (sigDigits(s) > 6) problems.push(`${where}, picture ${si + 1}: label "${s}" is float noise (${sigDigits(s)} significant digits)`);
        if (isNumeric(s)) {
          const r = t.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) labels.push({ s, r });
        }
      });
      let overlaps = 0;
      for (let i = 0; i < labels.length && overlaps < 3; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const a = labels[i].r, b = labels[j].r;
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          // Glyph boxes include line spacing: ignore a sliver of overlap.
          if (w > 1.5 && h > Math.min(a.height, b.height) * 0.35) {
            problems.push(`${where}, picture ${si + 1}: labels "${labels[i].s}" and "${labels[j].s}" overlap`);
            overlaps++;
            break;
          }
        }
      }
    });
    const bars = cell.querySelectorAll('.output_area progress').length;
    if (bars > 1) problems.push(`${where}: ${bars} progress bars left in a finished cell (want at most one)`);
  });
  return { problems, cells: cells.length };
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
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    for (const nb of a.notebooks) {
      const name = path.basename(nb);
      const page = await context.newPage();
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      const t0 = Date.now();
      await page.goto(`${a.url}/notebooks/${encodeURIComponent(name)}?token=${a.token}`, { waitUntil: 'load', timeout: 60000 });
      await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded, null, { timeout: 60000 });
      // Let images and fonts settle.
      await page.evaluate(() => document.fonts && document.fonts.ready);
      await page.waitForTimeout(500);
      const { problems, cells } = await page.evaluate(inspect);
      // Untrusted notebooks hide their SVG: that would pass the checks vacuously.
      const trusted = await page.evaluate(() => Jupyter.notebook.trusted);
      if (!trusted) problems.push('the notebook is not trusted: its SVG outputs are hidden (run `jupyter trust`)');
      const shot = path.join(a.out, name.replace(/\.ipynb$/, '.png'));
      // The classic UI scrolls inside #site: unroll it for a full-page picture.
      await page.evaluate(() => {
        document.body.style.overflow = 'visible';
        document.body.style.height = 'auto';
        const site = document.getElementById('site');
        if (site) { site.style.height = 'auto'; site.style.overflow = 'visible'; }
      });
      await page.screenshot({ path: shot, fullPage: true });
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
