export { INSPECTOR_CSS, INSPECTOR_HTML } from './page.js';
export { INSPECTOR_JS } from './script.js';
