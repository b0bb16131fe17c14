// A case's `mutations`: the schema and the document check refuse what cannot apply, each naming
// its field; what passes compiles to a script that makes, in a DOM (jsdom's, which keeps the DOM's
// rules), exactly the changes the vocabulary says, whatever text the request's values hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { checkRequest } from '../../src/protocol/validate.js';
import { OPS } from '../../src/protocol/ops.js';
import type { Mutation } from '../../src/protocol/mutations-schema.js';
import { mutationScript } from '../../src/page/mutation-script.js';

const HTML =
  '<!doctype html><html><head></head><body><div id="a" style="width: 10px;"><p>one</p><p>two</p></div><span>s</span></body></html>';
// 0 HTML, 1 HEAD, 2 BODY, 3 DIV#a, 4 P, 5 P, 6 SPAN

/** The refusal a vote request with these mutations gets: the schema's, else the document check's; null when it runs. */
function refusal(mutations: unknown, extra: Record<string, unknown> = {}): string | null {
  const request = { id: 'm', op: 'vote', html: HTML, mutations, ...extra };
  const parsed = checkRequest(request);
  if (!parsed.ok) return parsed.error.wireText;
  const why = OPS.vote.refusal(request as never);
  return why === null ? null : `invalid_request: ${why}`;
}

test('a node the document does not have is refused, naming the field', () => {
  assert.equal(refusal([{ op: 'remove', node: 7 }]), 'invalid_request: field "mutations[0].node": no element 7 (the document has 7)');
  assert.equal(
    refusal([{ op: 'insert', parent: 9, position: 0, html: '<div></div>' }]),
    'invalid_request: field "mutations[0].parent": no element 9 (the document has 7)',
  );
  assert.equal(
    refusal([
      { op: 'remove', node: 3 },
      { op: 'style', node: 5, property: 'width', value: '1px' },
    ]),
    'invalid_request: field "mutations[1].node": element 5 is gone, removed by mutations[0]',
  );
  assert.equal(
    refusal([
      { op: 'text', node: 3, value: 'x' },
      { op: 'text', node: 4, value: 'y' },
    ]),
    'invalid_request: field "mutations[1].node": element 4 is gone, its parent\'s text was set by mutations[0]',
  );
  assert.equal(
    refusal([{ op: 'insert', parent: 3, position: 3, html: '<div></div>' }]),
    'invalid_request: field "mutations[0].position": element 3 has 2 element children when it applies',
  );
  assert.equal(refusal([{ op: 'remove', node: 0 }]), 'invalid_request: field "mutations[0].node": the root element cannot be removed');
});

test('an inserted element gets the next unused index, its descendants the ones after it', () => {
  const insert = { op: 'insert', parent: 2, position: 0, html: '<div><b>x</b></div>' };
  assert.equal(refusal([insert, { op: 'style', node: 8, property: 'color', value: 'red' }]), null);
  assert.equal(
    refusal([insert, { op: 'style', node: 9, property: 'color', value: 'red' }]),
    'invalid_request: field "mutations[1].node": no element 9 (the document has 7, and 2 inserted)',
  );
});

test('a fragment that is not one inert element is refused, naming the field', () => {
  const fragment = (html: string) => refusal([{ op: 'insert', parent: 2, position: 0, html }]);
  assert.equal(
    fragment('<div></div><div></div>'),
    'invalid_request: field "mutations[0].html": must be one element (with its descendants), got 2 elements',
  );
  assert.equal(
    fragment('just text'),
    'invalid_request: field "mutations[0].html": must be one element (with its descendants), got 0 elements and text outside them',
  );
  assert.equal(
    fragment('<div></div>tail'),
    'invalid_request: field "mutations[0].html": must be one element (with its descendants), got 1 element and text outside them',
  );
  assert.match(fragment('<img src=x onerror=alert(1)>')!, /^invalid_request: field "mutations\[0\]\.html": <img> is not one of div, /);
  assert.match(
    fragment('<div><script>alert(1)</script></div>')!,
    /^invalid_request: field "mutations\[0\]\.html": <script> is not one of /,
  );
  assert.match(
    fragment('<div onclick="x()"></div>')!,
    /^invalid_request: field "mutations\[0\]\.html": attribute "onclick" is not one of class, id, style/,
  );
  assert.equal(fragment('  <div class="x">a<b>b</b></div>\n'), null);
});

test('a value the schema refuses is refused, naming the field', () => {
  assert.match(
    refusal([{ op: 'style', node: 3, property: 'width', value: '1px; color: red' }])!,
    /^invalid_request: field "mutations\[0\]\.value": expected string to match/,
  );
  assert.match(
    refusal([{ op: 'style', node: 3, property: 'Width', value: '1px' }])!,
    /^invalid_request: field "mutations\[0\]\.property": expected string to match/,
  );
  assert.equal(
    refusal([{ op: 'style', node: 3, property: 'width', value: 12 }]),
    'invalid_request: field "mutations[0].value": must be a string or a null',
  );
  assert.equal(
    refusal([{ op: 'attribute', node: 3, name: 'onclick', value: 'x()' }]),
    'invalid_request: field "mutations[0].name": must be one of "class", "id"',
  );
  assert.equal(
    refusal([{ op: 'remove', node: -1 }]),
    'invalid_request: field "mutations[0].node": expected integer to be greater or equal to 0',
  );
  assert.equal(
    refusal([{ op: 'move', node: 3 }]),
    'invalid_request: field "mutations[0].op": must be one of "style", "attribute", "insert", "remove", "text"',
  );
  assert.equal(refusal([{ op: 'remove', node: 3, extra: 1 }]), 'invalid_request: field "mutations[0].extra": unknown field');
  assert.equal(refusal([]), 'invalid_request: field "mutations": must not be empty');
  assert.equal(
    refusal([{ op: 'remove', node: 3 }], { script: 'x' }),
    'invalid_request: field "mutations": a request has a script or mutations, not both',
  );
});

/** The body's markup after `mutations` ran as their compiled script. */
function mutated(mutations: Mutation[]): string {
  assert.equal(refusal(mutations), null);
  const dom = new JSDOM(HTML, { runScripts: 'outside-only' });
  dom.window.eval(mutationScript(mutations));
  const body = dom.window.document.body.innerHTML;
  dom.window.close();
  return body;
}

test('each mutation compiles to the DOM change it names', () => {
  assert.equal(
    mutated([{ op: 'style', node: 3, property: 'height', value: '5px' }]),
    '<div id="a" style="width: 10px; height: 5px;"><p>one</p><p>two</p></div><span>s</span>',
  );
  assert.equal(
    mutated([{ op: 'style', node: 3, property: 'width', value: null }]),
    '<div id="a" style=""><p>one</p><p>two</p></div><span>s</span>',
  );
  assert.equal(
    mutated([{ op: 'attribute', node: 6, name: 'class', value: 'k' }]),
    '<div id="a" style="width: 10px;"><p>one</p><p>two</p></div><span class="k">s</span>',
  );
  assert.equal(
    mutated([{ op: 'attribute', node: 3, name: 'id', value: null }]),
    '<div style="width: 10px;"><p>one</p><p>two</p></div><span>s</span>',
  );
  assert.equal(mutated([{ op: 'remove', node: 4 }]), '<div id="a" style="width: 10px;"><p>two</p></div><span>s</span>');
  assert.equal(mutated([{ op: 'text', node: 3, value: 'plain' }]), '<div id="a" style="width: 10px;">plain</div><span>s</span>');
  assert.equal(
    mutated([
      { op: 'insert', parent: 3, position: 1, html: '<section class="n">x<b>y</b></section>' },
      { op: 'text', node: 8, value: 'z' },
      { op: 'insert', parent: 3, position: 3, html: '<hr>' },
    ]),
    '<div id="a" style="width: 10px;"><p>one</p><section class="n">x<b>z</b></section><p>two</p><hr></div><span>s</span>',
  );
});

test("a value's text stays a value: quotes, script end tags and line separators change nothing else", () => {
  const hostile = '"); document.body.remove(); ("</script><script>x()</script>\u2028\\';
  const mutations: Mutation[] = [
    { op: 'text', node: 6, value: hostile },
    { op: 'attribute', node: 4, name: 'class', value: hostile },
    { op: 'style', node: 3, property: '--v', value: hostile.replace(/;/g, ',') },
  ];
  assert.equal(refusal(mutations), null);
  const dom = new JSDOM(HTML, { runScripts: 'outside-only' });
  dom.window.eval(mutationScript(mutations));
  const { document } = dom.window;
  assert.equal(document.querySelector('span')!.textContent, hostile);
  assert.equal(document.querySelector('p')!.className, hostile);
  assert.equal((document.querySelector('#a') as HTMLElement).style.getPropertyValue('--v').trim(), hostile.replace(/;/g, ','));
  assert.equal(document.getElementsByTagName('*').length, 7);
  assert.equal(document.scripts.length, 0);
  dom.window.close();
  assert.doesNotMatch(mutationScript(mutations), /<\/script/i);
});
