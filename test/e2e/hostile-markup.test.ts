// A case's own markup cannot put its script before WebKit's guard (issue 23, finding 1). WebKitGTK
// has no isolated world: the guard, the first script of the document, captures the built-ins the
// walk and the probes run on. A case whose prefix a hand-written scan read otherwise than the HTML
// parser got its script run first, and its forgeries became WebKit's dump, with no error. Here,
// on real WebKit, each prefix before a forging script gives the dump of the same case without the
// forgery. (test/unit/guard-placement.test.ts holds the placement to a generated family of prefixes.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OracleProcess, type Line } from '../support/oracle-process.js';

describe("a case's markup cannot put its script before WebKit's guard (issue 23)", () => {
  // Each prefix is read by the HTML parser differently from a hand-written scan: the script in it
  // would run before a guard placed by the scan, and the walk would read its forgeries.
  const ATTACKS: Record<string, (script: string) => string> = {
    'abrupt empty comment': (s) => `<!--><script>${s}</script>`,
    'abrupt comment with a dash': (s) => `<!---><script>${s}</script>`,
    'comment closed by --!>': (s) => `<!-- a --!><script>${s}</script>`,
    'doctype with a quote': (s) => `<!doctype html="><script>${s}</script>">`,
    'processing instruction and bogus comment': (s) => `<?xml version="1.0"?><!x></ x><script>${s}</script>`,
    'BOM, CRLF, odd html and head, an end tag with attributes': (s) =>
      `\uFEFF<!doctype html>\r\n<html lang=en data-x="<!--"><head data-y='>'></p a=">"><script>${s}</script>`,
    'title and textarea': (s) => `<!doctype html><title><!--</title><textarea>--></textarea><script>${s}</script>`,
  };
  // Forges what the walk and the probes read, if it runs before the guard has captured the
  // built-ins. (Forged rects do not make a forged dump: WebKitGTK's WebDriver itself reads them,
  // and its calls never answer.)
  const FORGE =
    "Object.defineProperty(Element.prototype,'tagName',{get:()=>'FORGED'});" +
    "Object.defineProperty(HTMLInputElement.prototype,'maxLength',{get(){return 42}});";
  // Each script takes itself out, so the forging case and its reference have the same tree.
  const REMOVE = 'document.currentScript.remove()';
  const BODY = '<p id=a>x <b>y</b></p><div style="width:50px;padding:3px">z</div><input id=i maxlength=5>';
  const probes = [{ selector: '#i', attr: 'maxlength', idl: 'maxLength' }];

  let oracle: OracleProcess;
  before(async () => {
    oracle = new OracleProcess(['--workers=1', '--engines=webkit']);
    await oracle.ready();
  });
  after(() => oracle.shutdown());

  test("WebKit's dump of each is the dump of the same case with the forging script removed", async () => {
    const requests: Line[] = [];
    for (const [name, attack] of Object.entries(ATTACKS)) {
      requests.push(
        { id: `forged ${name}`, html: attack(FORGE + REMOVE) + BODY },
        { id: `reference ${name}`, html: attack(REMOVE) + BODY },
        { id: `forged reflect ${name}`, op: 'reflect', html: attack(FORGE + REMOVE) + BODY, probes },
        { id: `reference reflect ${name}`, op: 'reflect', html: attack(REMOVE) + BODY, probes },
      );
    }
    const answers = new Map((await Promise.all(requests.map((r) => oracle.request(r)))).map((a) => [a.id as string, a]));
    // Every attack's outcome, not just the first that fails.
    const wrong: string[] = [];
    const check = (name: string, ok: () => void) => {
      try {
        ok();
      } catch (error) {
        wrong.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
      }
    };
    for (const name of Object.keys(ATTACKS)) {
      const forged = answers.get(`forged ${name}`)!;
      const reference = answers.get(`reference ${name}`)!;
      check(name, () => {
        assert.equal(reference.errors, undefined, JSON.stringify(reference.errors));
        assert.ok(
          reference.dumps.webkit.nodes.some((n: Line) => n.tag === 'INPUT'),
          "the reference has the case's own tree",
        );
        assert.equal(forged.errors, undefined, JSON.stringify(forged.errors));
        assert.deepEqual(
          forged.dumps.webkit,
          reference.dumps.webkit,
          `forged tags ${JSON.stringify(forged.dumps.webkit.nodes.map((n: Line) => n.tag))}`,
        );
      });
      const forgedReflect = answers.get(`forged reflect ${name}`)!;
      check(`reflect ${name}`, () => {
        assert.equal(forgedReflect.errors, undefined, JSON.stringify(forgedReflect.errors));
        assert.equal(forgedReflect.states.webkit.observations[0].idl_value, 5);
        assert.deepEqual(forgedReflect.states, answers.get(`reference reflect ${name}`)!.states);
      });
    }
    assert.deepEqual(wrong, []);
  });
});
