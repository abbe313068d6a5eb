// What the reports domain contributes: filing and moderating reports, the member's own reports
// (under `me`), the sweep of expired report texts, and reports detached from a deleted member.
import { defineManifest } from '../manifest.js';
import { detachReportsOfDeletedMember } from './account-cleanup.js';
import { myReportsRouter, reportsRouter } from './router.js';
import { reportTextsSweep } from './texts-sweep.js';

export const reportsManifest = defineManifest({
  domain: 'reports',
  namespaces: { reports: reportsRouter },
  addsTo: { me: myReportsRouter },
  jobs: [() => reportTextsSweep],
  accountCleaners: [detachReportsOfDeletedMember],
});
