// Hostile cases (issue 9): a case can never forge, corrupt or read another answer. Each test is a
// reproduction from the issue, or a variant, on the three real engines. Every answer line is
// parsed as JSON on arrival (OracleProcess), so a forged or broken line fails the test there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_NAMES } from '../../src/protocol/schema.js';
import { ONE_PAGE, OracleProcess, type Line } from '../support/oracle-process.js';

/** Dumps with their versions, which may differ from run to run of the same build, left as they are. */
const dumpsOf = (answer: Line) => {
  assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
  assert.deepEqual(Object.keys(answer.dumps), [...ENGINE_NAMES]);
  return answer.dumps;
};

/** Answers to `requests`, sent at once; checks each id is answered exactly once and nothing else arrives. */
async function ask(oracle: OracleProcess, requests: Line[]): Promise<Map<string, Line>> {
  const before = oracle.lines.length;
  const answers = await Promise.all(requests.map((r) => oracle.request(r)));
  const arrived = oracle.lines.slice(before).map((l) => l.id);
  assert.deepEqual([...arrived].sort(), requests.map((r) => r.id).sort(), 'exactly one line per request, and no other');
  return new Map(answers.map((a) => [a.id as string, a]));
}

const PAGE = '<!doctype html><p id=a>x <b>y</b></p><div style="width:50px;padding:3px">z</div><input id=i maxlength=5>';

/** Built-ins a case replaces; the walk, the probes and the answers must not notice. */
const REPLACEMENTS: Record<string, string> = {
  // The reproduction: a parent index that is a string with a forged answer in it.
  'Map.prototype.get': `const g=Map.prototype.get;Map.prototype.get=function(k){const v=g.call(this,k);return k instanceof Element?"-1}]}}}\\n{\\"id\\":\\"victim\\",\\"dumps\\":{}}\\n":v}`,
  'Map.prototype.get (NaN)': 'Map.prototype.get=function(){return NaN}',
  'JSON.stringify': `JSON.stringify=()=>'{"forged":true}'`,
  'Array.prototype.push': 'Array.prototype.push=function(){return 0}',
  'Array iterator': 'Array.prototype[Symbol.iterator]=function*(){}',
  'Element.prototype.getBoundingClientRect': 'Element.prototype.getBoundingClientRect=()=>({x:1,y:2,width:3,height:4})',
  'Element.prototype.getClientRects': 'Element.prototype.getClientRects=()=>[]',
  getComputedStyle: "window.getComputedStyle=()=>({getPropertyValue:()=>'evil'})",
  innerWidth: "Object.defineProperty(window,'innerWidth',{value:5});Object.defineProperty(window,'devicePixelRatio',{value:3})",
  'Function.prototype.call and apply': 'Function.prototype.call=function(){return 0};Function.prototype.apply=function(){return 0}',
  'String.prototype.toJSON': "String.prototype.toJSON=()=>'x';Number.prototype.toJSON=()=>7",
  'an element clobbers its own properties':
    "Object.defineProperty(document.querySelector('#i'),'maxLength',{value:99});Object.defineProperty(document.querySelector('p'),'tagName',{value:'FORGED'})",
  'HTMLInputElement.prototype.maxLength': "Object.defineProperty(HTMLInputElement.prototype,'maxLength',{get(){return 42}})",
  'document.fonts': "Object.defineProperty(Document.prototype,'fonts',{get(){return {ready:new Promise(()=>{})}}})",
  eval: 'window.eval=()=>({forged:true})',
};

/**
 * Built-ins WebKitGTK's own WebDriver plumbing runs on in the page's world: replaced while the page
 * loads (inline), WebKit's answer is page_tampered, named — never a different dump.
 */
const WEBKIT_TRANSPORT = new Set(['JSON.stringify', 'Array.prototype.push', 'Array iterator', 'Function.prototype.call and apply']);

/** The dumps of an answer, where WebKit may instead say its WebDriver could not be trusted with the page. */
function dumpsOrTransport(answer: Line, name: string): Line {
  if (!WEBKIT_TRANSPORT.has(name) || answer.errors === undefined) return dumpsOf(answer);
  assert.deepEqual(Object.keys(answer.errors), ['webkit'], name);
  assert.match(answer.errors.webkit, /^page_tampered: .*WebKitGTK's WebDriver/, name);
  return { ...answer.dumps };
}

/**
 * One oracle for the file, one page per engine: the replacing cases, then the ones that try to
 * leave something behind, all run one after another in the same pages. No case here is meant to
 * time out: the limit is the shipped default, generous enough for a loaded machine, where Firefox
 * once took longer than 8 s to answer the case after a hang.
 */
let oracle: OracleProcess;
before(async () => {
  oracle = new OracleProcess([...ONE_PAGE, '--timeout-ms=30000']);
  await oracle.ready();
});
after(() => oracle.shutdown());

describe('a case that replaces built-ins gets the answer the same case gets without the replacement', () => {
  test('geometry, vote and reflect, with the replacement in the script or inline in the page', async () => {
    const probes = [{ selector: '#i', attr: 'maxlength', idl: 'maxLength' }];
    // A vote is the geometry walk of the same document, voted beside the engines
    // (src/workers/tasks/vote.ts): its dumps are the geometry answer's, so one request, and one
    // page per engine, holds both the dumps and the vote to the reference.
    const requests: Line[] = [
      { id: 'ref', op: 'vote', html: PAGE, script: 'void 0', dumps: true },
      { id: 'ref-inline', html: `${PAGE}<script>void 0</script>` },
      { id: 'ref-reflect', op: 'reflect', html: PAGE.replace('<!doctype html>', ''), script: 'void 0', probes },
    ];
    for (const [name, script] of Object.entries(REPLACEMENTS)) {
      requests.push(
        { id: `script ${name}`, op: 'vote', html: PAGE, script, dumps: true },
        { id: `inline ${name}`, html: `${PAGE}<script>${script.replace(/<\/script/gi, '')}</script>` },
        { id: `reflect ${name}`, op: 'reflect', html: PAGE.replace('<!doctype html>', ''), script, probes },
      );
    }
    const answers = await ask(oracle, requests);
    const reference = dumpsOf(answers.get('ref')!);
    const inlineReference = dumpsOf(answers.get('ref-inline')!);
    const voteReference = answers.get('ref')!.vote;
    const reflectReference = answers.get('ref-reflect')!.states;
    for (const name of Object.keys(REPLACEMENTS)) {
      const scripted = answers.get(`script ${name}`)!;
      assert.deepEqual(dumpsOf(scripted), reference, `script ${name}`);
      assert.deepEqual(scripted.vote, voteReference, `vote ${name}`);
      const inline = dumpsOrTransport(answers.get(`inline ${name}`)!, name);
      for (const engine of Object.keys(inline)) assert.deepEqual(inline[engine], inlineReference[engine], `inline ${name} ${engine}`);
      assert.equal(answers.get(`reflect ${name}`)!.errors, undefined, `reflect ${name}`);
      assert.deepEqual(answers.get(`reflect ${name}`)!.states, reflectReference, `reflect ${name}`);
    }
    assert.ok(!oracle.lines.some((l) => l.id === 'victim'), 'no forged line');
  });

  test('markup alone clobbers DOM properties on the fast path: the dump is the navigation path’s', async () => {
    const clobbering =
      '<!doctype html><form><input name=tagName><input name=getClientRects></form><img name=fonts><form name=querySelector></form><p>x';
    const answers = await ask(oracle, [
      { id: 'fast', html: clobbering },
      { id: 'navigated', html: clobbering, script: 'void 0' },
    ]);
    const fast = dumpsOf(answers.get('fast')!);
    assert.deepEqual(fast, dumpsOf(answers.get('navigated')!));
    assert.deepEqual(
      fast.chromium.nodes.map((n: Line) => n.tag),
      ['HTML', 'HEAD', 'BODY', 'FORM', 'INPUT', 'INPUT', 'IMG', 'FORM', 'P'],
    );
  });

  test("a trace page that replaces Symbol.for and the recorder's hook cannot forge its answer", async () => {
    const forge =
      '<script>const f=Symbol.for,s=Symbol();Symbol.for=k=>k===\'browser-oracle/trace\'?s:f(k);window[s]=async()=>[location.origin,true,false,\'[\\n{"id":"victim","traces":{}}\\n]\'];' +
      "try{Object.defineProperty(window,'__browserOracleTrace',{value:()=>0})}catch(e){};try{window.__browserOracleTrace=()=>0}catch(e){}</script>";
    const answers = await ask(oracle, [{ id: 'forge-t', op: 'trace', html: forge, script: "trace.value('ok', 1); trace.done()" }]);
    const answer = answers.get('forge-t')!;
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    for (const engine of ENGINE_NAMES) {
      assert.deepEqual(answer.traces[engine].records, [{ seq: 0, kind: 'value', label: 'ok', value: 1 }], engine);
    }
  });
});

describe('nothing a case leaves behind reaches a later case (one page per engine)', () => {
  test("a case's lingering script (an interval that navigates and injects) touches no later case", async () => {
    const victims = [
      { id: 'V0', html: '<p>victim</p><section></section>', script: '1' },
      { id: 'V1', html: '<p>victim</p><nav></nav>' },
      { id: 'V2', html: '<p>victim</p><article></article>', script: '1' },
    ];
    const reference = await ask(
      oracle,
      victims.map((v) => ({ ...v, id: `ref-${v.id}` })),
    );
    const attacker = {
      id: 'A',
      html: '<p>attacker</p>',
      script:
        "let i=0;setInterval(()=>{location.hash='h'+i++;if(document.body&&!document.querySelector('mark'))document.body.insertAdjacentHTML('afterbegin','<mark></mark>')},0)",
    };
    const answers = await ask(oracle, [attacker, ...victims]);
    assert.equal(answers.get('A')!.errors, undefined, 'the attacker itself is answered');
    for (const v of victims) assert.deepEqual(dumpsOf(answers.get(v.id)!), dumpsOf(reference.get(`ref-${v.id}`)!), v.id);
  });

  test("a case cannot reach the next case's document: its URL is unguessable, and served once", async () => {
    const answers = await ask(oracle, [
      {
        id: 'attacker',
        html: "<script>location.replace(location.pathname.replace(/-([0-9a-z]+)$/,(m,k)=>'-'+(parseInt(k,36)+1).toString(36)))</script>",
      },
      { id: 'reloader', html: '<p>x</p>', script: 'location.reload()' },
      { id: 'victim', html: '<h1>victim</h1><table><tr><td>secret</td></tr></table>', script: '1' },
      { id: 'victim-ref', html: '<h1>victim</h1><table><tr><td>secret</td></tr></table>', script: '1' },
    ]);
    assert.deepEqual(dumpsOf(answers.get('victim')!), dumpsOf(answers.get('victim-ref')!));
    // A case that leaves its own document is answered as such, never with another document's dump.
    for (const id of ['attacker', 'reloader']) {
      const answer = answers.get(id)!;
      for (const engine of ENGINE_NAMES) {
        if (answer.dumps?.[engine]) assert.ok(!JSON.stringify(answer.dumps[engine]).includes('"H1"'), `${id} ${engine}`);
        else assert.match(answer.errors[engine], /^page_tampered: /, `${id} ${engine}`);
      }
    }
  });

  test('window.name does not survive to the next case, geometry or trace', async () => {
    const answers = await ask(oracle, [
      { id: 'name-A', html: '<p>a</p>', script: "window.name='A:'+location.href" },
      { id: 'name-B', op: 'trace', script: "trace.value('name', window.name); trace.done()" },
      { id: 'name-C', html: '<p style="width:0">c</p>', script: "document.querySelector('p').style.width = window.name.length + 'px'" },
    ]);
    for (const engine of ENGINE_NAMES) {
      assert.deepEqual(answers.get('name-B')!.traces[engine].records[0].value, '', engine);
      const p = answers.get('name-C')!.dumps[engine].nodes.find((n: Line) => n.tag === 'P');
      assert.equal(p.bounding.w, 0, engine);
    }
  });

  test("a trace's popups die with its case: they cannot read or write the next trace", async () => {
    const answers = await ask(oracle, [
      {
        id: 'popup-A',
        op: 'trace',
        script:
          "const w=open('about:blank');if(w)w.eval(\"setInterval(()=>{try{const d=opener.document;if(d.body&&!d.body.dataset.seen){d.body.dataset.seen=1;opener.trace.value('INJECTED-BY-A',d.body.innerHTML)}}catch(e){}},20)\");trace.done()",
      },
      { id: 'popup-B', op: 'trace', html: "<p>B's secret</p>", script: 'setTimeout(()=>trace.done(),500)' },
    ]);
    const b = answers.get('popup-B')!;
    assert.equal(b.errors, undefined, JSON.stringify(b.errors));
    for (const engine of ENGINE_NAMES) assert.deepEqual(b.traces[engine].records, [], engine);
  });

  test('storage of every kind is gone from one trace to the next', async () => {
    const write =
      "document.cookie='c1=1; path=/trace/';document.cookie='c2=1; path=/';localStorage.setItem('k','v');" +
      "const db=indexedDB.open('oracle-test');db.onupgradeneeded=()=>db.result.createObjectStore('s');" +
      "db.onsuccess=()=>{db.result.close();caches.open('oracle-test').then((c)=>c.put('/x',new Response('y'))).then(()=>trace.done(),()=>trace.done())};" +
      'db.onerror=()=>trace.done()';
    const read =
      "trace.value('cookie',document.cookie);trace.value('local',localStorage.length);" +
      'Promise.all([indexedDB.databases?indexedDB.databases().then((d)=>d.length):0,caches.keys().then((k)=>k.length)])' +
      ".then(([dbs,c])=>{trace.value('databases',dbs);trace.value('caches',c);trace.done()},(e)=>{trace.error('read',e);trace.done()})";
    const answers = await ask(oracle, [
      { id: 'writer', op: 'trace', script: write },
      { id: 'reader', op: 'trace', script: read },
    ]);
    const reader = answers.get('reader')!;
    assert.equal(reader.errors, undefined, JSON.stringify(reader.errors));
    for (const engine of ENGINE_NAMES) {
      const values = Object.fromEntries(reader.traces[engine].records.map((r: Line) => [r.label, r.value]));
      assert.deepEqual(
        values,
        { cookie: '', local: 0, databases: 0, caches: 0 },
        `${engine}: ${JSON.stringify(reader.traces[engine].records)}`,
      );
    }
  });

  test('a WebKit shared worker does not outlive its trace', async () => {
    const connect =
      "const w=new SharedWorker('data:text/javascript,let n=0;onconnect=(e)=>{n++;e.ports[0].postMessage(n)}','oracle-test');" +
      "w.port.onmessage=(e)=>{trace.value('connections',e.data);trace.done()};w.port.start()";
    const answers = await ask(oracle, [
      { id: 'first', op: 'trace', engines: ['webkit'], script: connect },
      { id: 'second', op: 'trace', engines: ['webkit'], script: connect },
    ]);
    assert.deepEqual(answers.get('second')!.traces.webkit.records[0].value, 1, JSON.stringify(answers.get('second')));
  });

  test('history does not grow from case to case: the same case gives the same dump', async () => {
    const request = { html: '<p style="width:0">x</p>', script: "document.querySelector('p').style.width=history.length+'px'" };
    const answers = await ask(oracle, [
      { ...request, id: 'h1' },
      { ...request, id: 'h2' },
      { ...request, id: 'h3' },
    ]);
    assert.deepEqual(dumpsOf(answers.get('h2')!), dumpsOf(answers.get('h1')!));
    assert.deepEqual(dumpsOf(answers.get('h3')!), dumpsOf(answers.get('h1')!));
  });

  test("a case's deferred hang is charged to its page, not to the next case", async () => {
    // The timer may fire before the walk or after it, as the machine's speed has it: before, the
    // hanger itself is the case that timed out; after, its page is retired with the hang in it. The
    // pagehide hang always comes after the answer, when the page that ran it is closed.
    const answers = await ask(oracle, [
      { id: 'hanger', html: '<p>x</p>', script: 'setTimeout(()=>{for(;;){}},100)' },
      { id: 'hanger-on-close', html: '<p>x</p>', script: "addEventListener('pagehide',()=>{for(;;){}})" },
      { id: 'innocent', html: '<p>innocent</p>', script: '1' },
      { id: 'innocent-fast', html: '<p>innocent</p>' },
      { id: 'innocent-after-close', html: '<p>innocent</p>', script: '1' },
    ]);
    for (const [engine, error] of Object.entries(answers.get('hanger')!.errors ?? {})) {
      assert.match(String(error), /^case_timeout: /, `the hanger's own time ran out in ${engine}, or it was answered`);
    }
    dumpsOf(answers.get('hanger-on-close')!);
    dumpsOf(answers.get('innocent')!);
    dumpsOf(answers.get('innocent-fast')!);
    dumpsOf(answers.get('innocent-after-close')!);
  });
});
