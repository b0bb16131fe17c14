export { launchChromium, SYSTEM_CHROMIUM } from './browser.js';
