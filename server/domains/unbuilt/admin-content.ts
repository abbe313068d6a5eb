// Admin tools for reports: mounted, validated, answering 501. (Media and guide administration
// is built: server/domains/media/, server/domains/guides/.) Admins see the reporter of a report.
import { z } from 'zod';
import { listEnvelope, pageQueryFields } from '../../lib/pagination.js';
import { adminProcedure, notImplemented } from '../../trpc/procedures.js';
import { jsonBoolean, memberRef, uuidParam } from './common.js';
import { reportOutput, reportReasons, reportStatuses, reportTargetTypes } from './social.schemas.js';

const unbuilt = true as const;
const tags = ['admin'];

// ---- reports ----

export const adminReportOutput = reportOutput
  .extend({
    reporter: memberRef.nullable().meta({ description: 'Null when the reporter deleted the account.' }),
    resolutionNote: z.string().nullable(),
    resolvedAt: z.string().nullable(),
  })
  .meta({ id: 'AdminReport' });
export const adminListReportsInput = () =>
  z.object({
    status: z.enum(reportStatuses).optional().meta({ description: 'Default: all.' }),
    targetType: z.enum(reportTargetTypes).optional(),
    reason: z.enum(reportReasons).optional(),
    ...pageQueryFields(),
  });
export const resolveReportInput = z
  .object({
    id: uuidParam(),
    status: z.enum(['resolved', 'dismissed']),
    resolutionNote: z.string().trim().max(1000).optional(),
    removeContent: jsonBoolean().default(false).meta({ description: 'With `resolved`: delete the reported content.' }),
  })
  .strict()
  .meta({
    examples: [
      {
        id: '01936f5e-8c2a-7b3d-9e4f-a1b2c3d4e5f6',
        status: 'resolved',
        resolutionNote: 'Spam removed.',
        removeContent: true,
      },
    ],
  });

export const adminContentProcedures = {
  listReports: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: { method: 'GET', path: '/api/admin/reports', tags, summary: 'Reports, newest id last' },
    })
    .input(adminListReportsInput())
    .output(listEnvelope(adminReportOutput))
    .query(() => notImplemented()),
  resolveReport: adminProcedure
    .meta({
      auth: 'admin',
      unbuilt,
      openapi: {
        method: 'PUT',
        path: '/api/admin/reports/{id}',
        tags,
        summary: 'Resolve or dismiss a report',
        description: 'Only from `open`; anything else answers 409.',
      },
    })
    .input(resolveReportInput)
    .output(adminReportOutput)
    .mutation(() => notImplemented()),
};
