// What the actions domain contributes: actions, the member's actions (under `me`), and the CSV
// export (a raw route: not JSON).
import { defineManifest } from '../manifest.js';
import { router } from '../../trpc/init.js';
import { documentActionsExport, mountActionsExport } from './export-route.js';
import { actionsMeProcedures, actionsRouter } from './router.js';

export const actionsManifest = defineManifest({
  domain: 'actions',
  namespaces: { actions: actionsRouter },
  addsTo: { me: router(actionsMeProcedures) },
  rawRoutes: [
    { mount: (app, _deps, contextFor) => mountActionsExport(app, contextFor), document: documentActionsExport },
  ],
});
