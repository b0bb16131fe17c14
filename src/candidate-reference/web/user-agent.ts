// What the candidates assume of the browsers' default stylesheet (the HTML standard's rendering
// section, as Blink, Gecko and WebKit ship it): the displays of the common elements, the body's
// 8px margin, the block margins of paragraphs, headings and lists, and bold and italic for b,
// strong, em and i. It is cascaded beneath the case's own CSS, like the browsers' own. Elements
// whose rendering is the browser's own (replaced elements, form controls, tables, list items)
// are not laid out: a case in which one makes a box is unsupported (see boxes.ts).
export const USER_AGENT_SHEET = `
html, address, blockquote, body, center, dialog, div, figure, figcaption, footer, form, header, hr, legend,
listing, main, p, plaintext, pre, search, xmp, article, aside, h1, h2, h3, h4, h5, h6, hgroup, nav, section,
dir, dd, dl, dt, menu, ol, ul, fieldset, details, summary, optgroup { display: block; }
head, script, style, link, meta, title, template, base, noscript, area, datalist, param, rp, [hidden] { display: none; }
li { display: list-item; }
table { display: table; }
body { margin: 8px; }
p, dl, figure, pre, listing, plaintext, xmp { margin-top: 1em; margin-bottom: 1em; }
blockquote, figure { margin: 1em 40px; }
dd { margin-left: 40px; }
ul, ol, menu, dir { margin-top: 1em; margin-bottom: 1em; padding-left: 40px; }
h1 { font-size: 2em; margin-top: 0.67em; margin-bottom: 0.67em; font-weight: bold; }
h2 { font-size: 1.5em; margin-top: 0.83em; margin-bottom: 0.83em; font-weight: bold; }
h3 { font-size: 1.17em; margin-top: 1em; margin-bottom: 1em; font-weight: bold; }
h4 { margin-top: 1.33em; margin-bottom: 1.33em; font-weight: bold; }
h5 { font-size: 0.83em; margin-top: 1.67em; margin-bottom: 1.67em; font-weight: bold; }
h6 { font-size: 0.67em; margin-top: 2.33em; margin-bottom: 2.33em; font-weight: bold; }
b, strong, th, dt { font-weight: bold; }
em, i, cite, var, dfn, address { font-style: italic; }
pre, listing, plaintext, xmp { white-space: pre; }
`;

/** HTML elements whose box is the browser's own rendering, not a CSS layout algorithm's. */
export const BROWSER_RENDERED = new Set([
  'img',
  'video',
  'audio',
  'canvas',
  'iframe',
  'embed',
  'object',
  'input',
  'button',
  'select',
  'textarea',
  'meter',
  'progress',
  'fieldset',
  'legend',
  'details',
  'summary',
  'dialog',
  'hr',
  'br',
  'wbr',
  'marquee',
  'frameset',
  'frame',
  'ruby',
  'rt',
  'math',
  'svg',
  'optgroup',
  'option',
]);
