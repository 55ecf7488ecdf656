import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from 'tailwindcss';
import defaultTheme from 'tailwindcss/defaultTheme';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
// pnpm links @medusajs/ui from its store: scan the real folder of its compiled components.
const medusaUi = path.join(path.dirname(require.resolve('@medusajs/ui')), '..', 'esm');

export default {
  presets: [require('@medusajs/ui-preset') as Config],
  content: [
    path.join(here, 'index.html'),
    path.join(here, 'src/**/*.{ts,tsx}'),
    path.join(medusaUi, '**/*.js'),
  ],
  darkMode: 'class',
  theme: {
    extend: {
      // The Inter variable font ships with the app (@fontsource-variable/inter): no font CDN.
      fontFamily: { sans: ['"Inter Variable"', 'Inter', ...defaultTheme.fontFamily.sans] },
    },
  },
} satisfies Config;
