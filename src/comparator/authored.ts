// The authored expectations of a check-layout page judged at web-platform-tests' own rule
// (/resources/check-layout-th.js): a number holds when |actual − expected| < 1 (a missing or
// non-numeric value fails), a computed display when the strings are equal, a padding or margin
// when the computed value without its last two characters ("10px" → "10") equals the attribute;
// an unknown data-* key fails. One assertion per attribute of each element read, per engine (the
// page's own reading) and for a candidate (values derived from its dump: authored-derive.ts).
import { AUTHORED_ATTRIBUTES, type AuthoredAttribute, type AuthoredReading } from '../protocol/authored-schema.js';

/** One assertion that does not hold. */
export interface AuthoredFailure {
  index: number;
  tag: string;
  attr: string;
  expected: string;
  /** The value it was held to; null where there was none (offset* off an HTMLElement, no box). */
  actual: number | string | null;
}

/** How a subject's assertions went. */
export interface AuthoredTally {
  pass: number;
  fail: number;
  failures: AuthoredFailure[];
}

/** The DOM value (or values, summed: data-total-*) an attribute is held to, from a reading's or a derivation's values. */
export function actualOf(
  attr: AuthoredAttribute,
  values: Readonly<Record<string, number | string | null | undefined>>,
): number | string | null {
  const needs = AUTHORED_ATTRIBUTES[attr];
  if (needs.length === 1) {
    const value = values[needs[0]!];
    return value === undefined ? null : value;
  }
  let sum = 0;
  for (const name of needs) {
    const value = values[name];
    if (typeof value !== 'number') return null;
    sum += value;
  }
  return sum;
}

/** Whether `actual` holds against the attribute's `expected` text, at check-layout-th.js's rule. */
export function holds(attr: AuthoredAttribute, expected: string, actual: number | string | null): boolean {
  const need = AUTHORED_ATTRIBUTES[attr][0]!;
  if (need === 'display') return actual === expected;
  if (need.startsWith('padding-') || need.startsWith('margin-')) return typeof actual === 'string' && actual.slice(0, -2) === expected;
  // assert_tolerance: NaN on either side, or a distance of 1 or more, fails (Number('') is 0, but "" is never checked).
  const e = Number(expected);
  return typeof actual === 'number' && !Number.isNaN(e) && Math.abs(actual - e) < 1;
}

/** One element's assertions as judged: each attribute's expected text and the actual value. */
export interface AuthoredAssertion {
  index: number;
  attr: AuthoredAttribute;
  expected: string;
  actual: number | string | null;
}

/** Every assertion a reading makes, with the values it read. */
export function readingAssertions(reading: AuthoredReading): AuthoredAssertion[] {
  return reading.elements.flatMap((element) =>
    Object.entries(element.attrs).map(([attr, expected]) => ({
      index: element.index,
      attr: attr as AuthoredAttribute,
      expected,
      actual: actualOf(attr as AuthoredAttribute, element.values),
    })),
  );
}

/** `assertions` and a reading's unknown keys judged; `tagOf` names an element by its index (the dump's tag). */
export function tally(
  assertions: readonly AuthoredAssertion[],
  unknownKeys: AuthoredReading['unknown_keys'],
  tagOf: (index: number) => string,
): AuthoredTally {
  const failures: AuthoredFailure[] = [];
  let pass = 0;
  for (const a of assertions) {
    if (holds(a.attr, a.expected, a.actual)) pass++;
    else failures.push({ index: a.index, tag: tagOf(a.index), attr: a.attr, expected: a.expected, actual: a.actual });
  }
  for (const key of unknownKeys) {
    failures.push({
      index: key.index,
      tag: tagOf(key.index),
      attr: key.name,
      expected: 'a data-* name check-layout-th.js knows',
      actual: null,
    });
  }
  failures.sort((x, y) => x.index - y.index);
  return { pass, fail: failures.length, failures };
}

/** An engine's own reading judged. */
export const judgeReading = (reading: AuthoredReading, tagOf: (index: number) => string): AuthoredTally =>
  tally(readingAssertions(reading), reading.unknown_keys, tagOf);

/**
 * The finding of its own a check-layout page can hold: an assertion that all three browsers fail,
 * with values within 1 px of each other (the same string for a computed style), so the browsers
 * agree with each other and not with the test: a WPT test that is wrong, or a bug all three share.
 * Each such assertion once, by element index and attribute; empty when no engine set is complete.
 */
export function agreedAgainst(tallies: readonly AuthoredTally[]): AuthoredFailure[] {
  if (tallies.length < 3) return [];
  const key = (f: AuthoredFailure) => `${f.index} ${f.attr}`;
  const [first, ...rest] = tallies;
  const others = rest.map((t) => new Map(t.failures.map((f) => [key(f), f])));
  return first!.failures.filter((f) =>
    others.every((m) => {
      const g = m.get(key(f));
      if (g === undefined) return false;
      if (typeof f.actual === 'number' && typeof g.actual === 'number') return Math.abs(f.actual - g.actual) < 1;
      return f.actual === g.actual;
    }),
  );
}
