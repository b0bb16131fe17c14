// The single-element deletions of a case: what the final 1-minimality check tries, and what a
// test can try to confirm the result is 1-minimal.
import { htmlSubject, modeOf, parseHtml, type HtmlDoc, type HtmlKind } from './html-case.js';
import { stage, type Subject } from './pass.js';
import { anySubtree, hoisting } from './passes/elements.js';

/** Builders of `html` less one element: each deletable element with its subtree, then each one hoisted. */
export function removalBuilders(subject: Subject<HtmlDoc>, html: string): (() => string | undefined)[] {
  return [stage('html', subject, anySubtree), stage('html', subject, hoisting)].flatMap((s) => {
    const units = s.open(html, 0)!;
    const all = Array.from({ length: units.size }, (_, i) => i);
    return all.map((i) => () => units.build(all.filter((j) => j !== i)));
  });
}

/**
 * Every text of `html` with one element removed (with its subtree) or hoisted (replaced by its
 * children), printed as the reducer prints trials; a removal the parser undoes (an implied
 * `<tbody>`) gives the same text back.
 */
export function elementRemovals(html: string, kind: HtmlKind): string[] {
  return removalBuilders(htmlSubject(kind, modeOf(parseHtml(html, kind))), html).flatMap((build) => build() ?? []);
}
