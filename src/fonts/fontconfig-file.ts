// The FONTCONFIG_FILE an engine is launched with for a font set. The square set's file names the
// folder it was built in; an installed copy of the package gets a file of its own that names
// where the fonts are now (squareFontconfigDir).
import type { FontSetName } from '../protocol/font-sets.js';
import { squareFontconfigDir } from './build-square-fonts.js';
import { FONT_SETS } from './font-sets.js';

/** The fontconfig file every engine launched with `name` is given. */
export function fontconfigFileOf(name: FontSetName): string {
  return name === 'square' ? `${squareFontconfigDir()}/fonts.conf` : FONT_SETS[name].fontconfigFile;
}
