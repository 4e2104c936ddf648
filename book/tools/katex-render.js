// Render the math of an HTML page with KaTeX at build time (no JavaScript
// in the page).  Reads the page on stdin, writes it on stdout.
//
//   NODE_PATH=/usr/share/nodejs node katex-render.js < page.html > index.html
//
// pandoc leaves math as <span class="math inline">TeX</span> and
// <span class="math display">TeX</span> (TeX HTML-escaped).  Each formula is
// rendered with throwOnError and strict mode: the first formula KaTeX
// rejects or warns about stops the build, quoted in the message.
'use strict';
const katex = require('katex');
const fs = require('fs');

const page = fs.readFileSync(0, 'utf8');
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

let count = 0;
const out = page.replace(/<span class="math (inline|display)">([\s\S]*?)<\/span>/g,
  (whole, kind, tex) => {
    tex = unescape(tex);
    try {
      count++;
      return katex.renderToString(tex, {
        displayMode: kind === 'display', throwOnError: true, strict: 'error',
        output: 'htmlAndMathml',
      });
    } catch (e) {
      process.stderr.write(`katex-render: ${e.message}\n  in ${kind} math: ${tex}\n`);
      process.exit(1);
    }
  });
if (/class="math (inline|display)"/.test(out)) {
  process.stderr.write('katex-render: a math span was left unrendered\n');
  process.exit(1);
}
process.stdout.write(out);
