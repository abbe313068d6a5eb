// What the data-export domain contributes: the member's data archive under `me` (ask, state),
// its download (a raw route: a zip), the builder job and the sweep. Account deletion needs no
// cleaner: the export row, archive included, cascades with the user.
import { defineManifest } from '../manifest.js';
import { documentExportDownload, mountExportDownload } from './download-route.js';
import { createExportBuilderJob, exportSweep } from './jobs.js';
import { dataExportMeRouter } from './router.js';

export const dataExportManifest = defineManifest({
  domain: 'data-export',
  addsTo: { me: dataExportMeRouter },
  rawRoutes: [
    { mount: (app, _deps, contextFor) => mountExportDownload(app, contextFor), document: documentExportDownload },
  ],
  jobs: [createExportBuilderJob, () => exportSweep],
});
