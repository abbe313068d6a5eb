// What the guides domain contributes: guides and their categories.
import { defineManifest } from '../manifest.js';
import { guideCategoriesRouter, guidesRouter } from './router.js';

export const guidesManifest = defineManifest({
  domain: 'guides',
  namespaces: { guides: guidesRouter, guideCategories: guideCategoriesRouter },
});
