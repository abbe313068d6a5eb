// What the stats domain contributes: the public totals.
import { defineManifest } from '../manifest.js';
import { statsRouter } from './router.js';

export const statsManifest = defineManifest({ domain: 'stats', namespaces: { stats: statsRouter } });
