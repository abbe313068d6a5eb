// The shared setup of the push sender tests: a test app with Web Push configured and a real test
// push service (push-service.ts), started and closed by the file's hooks, and a way to run the
// push outbox job (server/push/outbox.ts) with the kinds under test once by hand on the app's clock.
import webPush from 'web-push';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../db/client.js';
import type { Config } from '../../server/config.js';
import { createJobRunner } from '../../server/jobs/runner.js';
import type { Logger } from '../../server/log.js';
import { createPushOutboxJob, type PushKind } from '../../server/push/outbox.js';
import { createWebPushSender, type WebPushSender } from '../../server/push/web-push.js';
import { createTestApp, type TestApp, type TestMember } from '../setup/harness.js';
import { startTestPushService, subscribeBrowser, type TestPushService, webPushTestConfig } from './push-service.js';

export interface PushJobHarness {
  /** Set once the file's first beforeAll has run. */
  t: TestApp;
  push: TestPushService;
  runJob(): Promise<Record<string, number> | null>;
  /** Registers a new browser for the member; its endpoint. */
  subscribe(member: TestMember): Promise<string>;
  /** The pushes that reached one browser, oldest first. */
  pushesTo(endpoint: string): TestPushService['received'];
}

export type PushKindFactory = (deps: {
  push: WebPushSender;
  log: Logger;
  database: Database;
  config: Config;
}) => PushKind;

/** The outbox job with only these kinds (the rows of other kinds stay where they are). */
export function outboxJobOf(t: TestApp, kinds: readonly PushKindFactory[], options: { batch?: number } = {}) {
  const deps = {
    push: createWebPushSender({ config: t.config, log: t.deps.log }),
    log: t.deps.log,
    database: t.deps.database,
    config: t.deps.config,
  };
  return createPushOutboxJob(
    deps,
    kinds.map((make) => make(deps)),
    options,
  );
}

export function usePushJobHarness(...kinds: PushKindFactory[]): PushJobHarness {
  const vapid = webPush.generateVAPIDKeys();
  const harness = {
    runJob() {
      const { t } = harness;
      const job = outboxJobOf(t, kinds);
      return createJobRunner({ database: t.deps.database, clock: t.clock, log: t.deps.log }, [job]).runOnce(job);
    },
    subscribe: (member: TestMember) => subscribeBrowser(harness.t, harness.push, member),
    pushesTo: (endpoint: string) => harness.push.received.filter((p) => p.endpoint === endpoint),
  } as PushJobHarness;
  beforeAll(async () => {
    harness.t = await createTestApp(webPushTestConfig(vapid));
    harness.push = await startTestPushService();
  });
  afterAll(async () => {
    await harness.push?.close();
    await harness.t?.close();
  });
  return harness;
}
