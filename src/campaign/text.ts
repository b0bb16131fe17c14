// Words for text cases: runs of letters of random length, so line breaking depends on how
// many characters fit, not on the look of one passage. Each word is in one script; Hebrew
// brings right-to-left runs (bidi). Every character is one both font sets draw: Liberation
// covers Latin, Greek, Cyrillic and Hebrew, and the square font everything.
import type { Random, Weighted } from './random.js';

const ALPHABETS: Weighted<string>[] = [
  [8, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèàüöñçßøå0123456789'],
  [1, 'αβγδεζηθικλμνξοπρστυφχψω'],
  [1, 'абвгдежзийклмнопрстуфхцчшщыэюя'],
  [1, 'אבגדהוזחטיכלמנסעפצקרשת'],
];
const PUNCTUATION = [',', '.', ';', ':', '!', '?'];

/** `count` words separated by spaces (now and then a no-break space). */
export function words(random: Random, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) {
    if (i > 0) text += random.chance(0.1) ? '\u00a0' : ' ';
    text += word(random);
  }
  return text;
}

function word(random: Random): string {
  const alphabet = [...random.weighted(ALPHABETS)];
  const letters = () => Array.from({ length: random.int(1, 8) }, () => random.pick(alphabet)).join('');
  let text = letters();
  if (random.chance(0.1)) text += `-${letters()}`; // a break opportunity inside the word
  if (random.chance(0.15)) text += random.pick(PUNCTUATION);
  return text;
}
