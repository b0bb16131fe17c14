// Whether an engine under test declares it lays out a declaration, read from its ping's
// `supports` (docs/candidate.md, "The protocol"): the property must be listed, and every term of
// the value too. A term is a keyword (itself), a value type (`<length>`, `<percentage>`,
// `<number>`, `<integer>`, `<flex>`, `<family-name>`) or a function (`name()`, whose own arguments are read the
// same way, a bare count such as repeat()'s always accepted); and, when the candidate says so,
// an absolutely positioned box must sit in a positioned parent. The generator keeps to this when
// a campaign has a candidate.
import valueParser from 'postcss-value-parser';
import type { CandidateSupports } from '../../protocol/candidate-schema.js';

/** What the generator may write for an engine under test. */
export interface Supported {
  /** Whether the declaration is inside what it lays out. */
  admits(property: string, value: string): boolean;
  /** An absolutely positioned box must be in a positioned parent (its `supports.absolute` is `parent`). */
  absoluteInParent: boolean;
}

/** What a candidate's `supports` lets the generator write. */
export function supportedBy(supports: CandidateSupports): Supported {
  return {
    admits(property, value) {
      const terms = supports.properties[property];
      return (
        terms !== undefined &&
        termsOf(valueParser(value).nodes, false).every((term) => term === true || term.some((t) => terms.includes(t)))
      );
    },
    absoluteInParent: supports.absolute === 'parent',
  };
}

/** Each component's acceptable spellings as terms, or true for one always accepted (a count inside a function). */
function termsOf(nodes: valueParser.Node[], inFunction: boolean): (string[] | true)[] {
  return nodes.flatMap((node): (string[] | true)[] => {
    switch (node.type) {
      case 'function':
        return [[`${node.value.toLowerCase()}()`], ...termsOf(node.nodes, true)];
      case 'word': {
        const number = valueParser.unit(node.value);
        // An identifier is a keyword, or a font family's name.
        if (!number) return [[node.value.toLowerCase(), '<family-name>']];
        const unit = number.unit.toLowerCase();
        if (unit === '%') return [['<percentage>']];
        if (unit === 'fr') return [['<flex>']];
        if (unit) return [['<length>']];
        if (inFunction && Number.isInteger(Number(number.number))) return [true];
        const zero = Number(number.number) === 0 ? ['<length>', '<percentage>'] : [];
        return [[...(Number.isInteger(Number(number.number)) ? ['<integer>'] : []), '<number>', ...zero]];
      }
      case 'string':
        return [['<string>', '<family-name>']];
      default:
        // Spaces, commas and slashes separate terms; comments are nothing.
        return [];
    }
  });
}
