// What a reduction pass is. A pass lists the units it can delete from a freshly parsed case
// (elements, attributes, declarations, words, statements...) in a fixed order, and deletes a
// chosen subset of them. Every trial is built from the case's text by parsing it again, so
// units are plain references into that one parse and a pass never has to undo anything: the
// same text always yields the same units in the same order, and index i names the same unit in
// every trial of one step.

/** The request field a pass edits. */
export type Field = 'html' | 'script' | 'mutations';

/** How a field's text is parsed for a pass and printed back; undefined means "cannot be edited". */
export interface Subject<D> {
  parse(text: string): D | undefined;
  print(doc: D): string | undefined;
}

/** A kind of deletion over a parsed field. */
export interface Pass<D, U> {
  readonly name: string;
  /** Hierarchical passes are run level by level, top down (HDD); a flat one has only level 0. */
  readonly hierarchical: boolean;
  /** The units at `level`, in document order; none once past the deepest level. */
  collect(doc: D, level: number): U[];
  /** Deletes `units` (all from one `collect` on `doc`) from `doc`. */
  remove(doc: D, units: readonly U[]): void;
}

/** One level of one pass over one text: how many units it has, and the text left when only `keep` remain. */
interface Level {
  readonly size: number;
  build(keep: readonly number[]): string | undefined;
}

/** A pass bound to the subject of its field, with the parsed-tree types erased. */
export interface Stage {
  readonly name: string;
  readonly field: Field;
  readonly hierarchical: boolean;
  /** The units of `level` in `text`; undefined when the text cannot be parsed for this pass. */
  open(text: string, level: number): Level | undefined;
}

/** Binds `pass` to the subject that parses and prints its field. */
export function stage<D, U>(field: Field, subject: Subject<D>, pass: Pass<D, U>): Stage {
  return {
    name: pass.name,
    field,
    hierarchical: pass.hierarchical,
    open(text, level) {
      const doc = subject.parse(text);
      if (doc === undefined) return undefined;
      const size = pass.collect(doc, level).length;
      return {
        size,
        build(keep) {
          const fresh = subject.parse(text)!;
          const units = pass.collect(fresh, level);
          const kept = new Set(keep);
          pass.remove(
            fresh,
            units.filter((_, i) => !kept.has(i)),
          );
          return subject.print(fresh);
        },
      };
    },
  };
}
