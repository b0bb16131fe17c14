// Words for text cases: runs of letters of random length, so line breaking depends on how
// many characters fit, not on the look of one passage. The words of one text node are in one
// script, so bidi (Hebrew brings right-to-left runs) comes from elements meeting, not from runs
// inside one inline box: there the engines' client rects part ways (WebKit one rect for the
// inline, Blink one per run, Gecko one more for a space; docs/campaign.md, "Text"). Every
// character is one both font sets draw: Liberation covers Latin, Greek, Cyrillic and Hebrew, and
// the square font everything.
import type { Random, Weighted } from './random.js';

const ALPHABETS: Weighted<string>[] = [
  [8, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèàüöñçßøå0123456789'],
  [1, 'αβγδεζηθικλμνξοπρστυφχψω'],
  [1, 'абвгдежзийклмнопрстуфхцчшщыэюя'],
  [1, 'אבגדהוזחטיכלמנסעפצקרשת'],
];
const PUNCTUATION = [',', '.', ';', ':', '!', '?'];

/** Plain words: ASCII letters and digits, one space between words (an engine under test's text). */
const PLAIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

/**
 * `count` words of one script separated by spaces (now and then a no-break space); `plain`: words
 * of ASCII letters and digits alone, broken only at spaces, which is the text the candidate protocol
 * lets an engine under test measure (docs/candidate.md).
 */
export function words(random: Random, count: number, { plain = false } = {}): string {
  const alphabet = plain ? PLAIN : [...random.weighted(ALPHABETS)];
  let text = '';
  for (let i = 0; i < count; i++) {
    if (i > 0) text += !plain && random.chance(0.1) ? '\u00a0' : ' ';
    text += word(random, alphabet, plain);
  }
  return text;
}

function word(random: Random, alphabet: string[], plain: boolean): string {
  const letters = () => Array.from({ length: random.int(1, 8) }, () => random.pick(alphabet)).join('');
  let text = letters();
  if (plain) return text;
  if (random.chance(0.1)) text += `-${letters()}`; // a break opportunity inside the word
  if (random.chance(0.15)) text += random.pick(PUNCTUATION);
  return text;
}
