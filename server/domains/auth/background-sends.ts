// Mails a sign-in sends after its answer (magic links, identity notices, new-device alerts): the
// answer's time never shows whether or how a mail went, and shutdown and tests wait for them.
import type { ServiceContext } from '../../service/context.js';

/** Background sends still running (magic links, identity mails); tests and shutdown wait for them. */
export const pendingMagicLinks = new Set<Promise<unknown>>();

/** Runs a mail send after the answer: neither its time nor a failing mail server shows in it. */
export function sendInBackground(ctx: ServiceContext, send: Promise<unknown>, failure: string): void {
  const work = send.catch((error: unknown) => ctx.log.error({ err: error }, failure));
  pendingMagicLinks.add(work);
  void work.finally(() => pendingMagicLinks.delete(work));
}
