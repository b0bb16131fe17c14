export { launchWebKit } from './browser.js';
export { MINIBROWSER, WEBKIT_DRIVER } from './minibrowser.js';
