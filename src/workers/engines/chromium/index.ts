export { chromiumLaunchOptions, launchChromium, SYSTEM_CHROMIUM } from './browser.js';
