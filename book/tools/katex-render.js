// Render the math of the HTML book's pages with KaTeX at build time (no
// JavaScript in the pages).  One node process for all pages of an edition.
//
//   NODE_PATH=/usr/share/nodejs node katex-render.js INDIR OUTDIR
//
// Reads every INDIR/*.html, writes it to OUTDIR with its math rendered.
// pandoc leaves math as <span class="math inline">TeX</span> and
// <span class="math display">TeX</span> (TeX HTML-escaped).  Each formula is
// rendered with throwOnError and strict mode: the first formula KaTeX
// rejects or warns about stops the build, quoted in the message with its page.
// Punctuation right after inline math (.,;:!?)]) is rendered as part of
// the formula, so that no line starts with the comma that ends a formula:
// Chromium may break a line after any inline-block, and KaTeX's pieces are
// inline-blocks, so a wrapper with white-space: nowrap does not prevent it
// (and would forbid the breaks a long formula needs).
'use strict';
const katex = require('katex');
const fs = require('fs');
const path = require('path');

const [inDir, outDir] = process.argv.slice(2);
if (!inDir || !outDir) {
  process.stderr.write('usage: katex-render.js INDIR OUTDIR\n');
  process.exit(1);
}
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

const MATH = /<span class="math (inline|display)">([\s\S]*?)<\/span>([.,;:!?)\]]*)/g;

function render(page, file) {
  return page.replace(MATH, (whole, kind, tex, after) => {
    tex = unescape(tex);
    if (kind === 'inline') {
      tex += after.replace(/./g, '{$&}');   // braces: spaced as text, not as math
      after = '';
    }
    let out;
    try {
      out = katex.renderToString(tex, {
        displayMode: kind === 'display', throwOnError: true, strict: 'error',
        output: 'htmlAndMathml',
      });
    } catch (e) {
      process.stderr.write(`katex-render: ${file}: ${e.message}\n  in ${kind} math: ${tex}\n`);
      process.exit(1);
    }
    return out + after;
  });
}

fs.mkdirSync(outDir, { recursive: true });
for (const name of fs.readdirSync(inDir).filter((n) => n.endsWith('.html')).sort()) {
  const out = render(fs.readFileSync(path.join(inDir, name), 'utf8'), name);
  if (/class="math (inline|display)"/.test(out)) {
    process.stderr.write(`katex-render: ${name}: a math span was left unrendered\n`);
    process.exit(1);
  }
  fs.writeFileSync(path.join(outDir, name), out);
}
