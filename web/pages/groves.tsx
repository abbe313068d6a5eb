// A grove's page (/app/groves/:slug: join or ask to, invite codes, leave, upcoming events) and
// every grove POST, among them the organizers' (their sections of the page are
// groves-organizers.tsx). Leaving, removing and banning ask first (confirm.tsx); a ban takes a
// reason. The list and the admins' create form are groves-list.tsx.
import type { Context } from 'hono';
import { api, apiErrorMessage } from '../server/api.js';
import type { WebEnv } from '../server/env.js';
import { redirectWithNotice } from '../server/flash.js';
import { t } from '../server/i18n.js';
import { renderPage } from '../server/layout.js';
import { formFields, notFoundPage, rethrowUnless, UpcomingEvents } from './events-common.js';
import { confirmFirst, type ReasonField } from './confirm.js';
import { ShareHost } from './embed-share.js';
import { type Grove, grovePath, type JoinPolicy, joinPolicyLabel } from './groves-common.js';
import { FederationSection, federationData } from './federation.js';
import { type Invite, OrganizerSections, organizerData } from './groves-organizers.js';
import { type Page, pathParam } from './page.js';
import { urls } from '../urls.js';

/** A ban takes a reason: kept with the ban, shown to the grove's organizers only. */
function banReason(): ReasonField {
  return {
    label: t('groves.organizers.confirmBan.reasonLabel'),
    hint: t('groves.organizers.confirmBan.reasonHint'),
    required: true,
    maxLength: 500,
  };
}

/** What leaving costs, by the grove's join policy. */
const leaveConsequenceKeys: Record<JoinPolicy, string> = {
  open: 'groves.membership.confirmLeave.open',
  approval: 'groves.membership.confirmLeave.approval',
  invite: 'groves.membership.confirmLeave.invite',
};

function MembershipControls({ grove }: { grove: Grove }) {
  if (grove.myRole) {
    return (
      <form method="post" action={urls.groveLeave(grove.slug)}>
        <p>
          {grove.myRole === 'organizer' ? t('groves.membership.youAreOrganizer') : t('groves.membership.youAreMember')}{' '}
          <button type="submit" class="secondary">
            {grove.myRole === 'organizer' ? t('groves.membership.leaveAsOrganizer') : t('groves.membership.leave')}
          </button>
        </p>
      </form>
    );
  }
  if (grove.myJoinRequestPending) {
    return (
      <form method="post" action={urls.groveLeave(grove.slug)}>
        <p>
          {t('groves.membership.requestWaiting')}{' '}
          <button type="submit" class="secondary">
            {t('groves.membership.withdraw')}
          </button>
        </p>
      </form>
    );
  }
  return (
    <>
      {grove.joinPolicy === 'invite' ? null : (
        <form method="post" action={urls.groveJoin(grove.slug)}>
          <button type="submit">
            {grove.joinPolicy === 'open' ? t('groves.membership.join') : t('groves.membership.ask')}
          </button>
        </form>
      )}
      <form
        method="post"
        action={urls.groveJoin(grove.slug)}
        class="stack"
        aria-label={t('groves.membership.codeForm')}
      >
        <div>
          <label for="invite-code">
            {t('groves.membership.code')} <span class="hint">{t('groves.membership.codeHint')}</span>
          </label>
          <input id="invite-code" name="code" type="text" required maxlength={16} autocomplete="off" />
        </div>
        <p>
          <button type="submit" class="secondary">
            {t('groves.membership.joinWithCode')}
          </button>
        </p>
      </form>
    </>
  );
}

async function loadGrove(c: Context<WebEnv>): Promise<Grove | null> {
  try {
    return await api(c).groves.get.query({ grove: pathParam(c, 'slug') });
  } catch (caught) {
    rethrowUnless(caught, 404, 400);
    return null;
  }
}

async function grovePage(c: Context<WebEnv>, grove: Grove, invite?: Invite): Promise<Response> {
  const [data, federation, events] = await Promise.all([
    organizerData(c, grove),
    grove.myRole === 'organizer' ? federationData(c, 'grove', grove._id) : null,
    api(c).events.list.query({ groveId: grove._id, from: new Date().toISOString(), limit: 10 }),
  ]);
  if (invite) c.header('Cache-Control', 'private, no-store');
  return renderPage(
    c,
    { title: grove.name, scripts: ['/assets/local-times.js'] },
    <>
      <dl class="details">
        <dt>{t('groves.page.region')}</dt>
        <dd>{grove.region.name}</dd>
        <dt>{t('groves.page.members')}</dt>
        <dd>{t('groves.page.memberCount', { count: grove.memberCount, organizers: grove.organizerCount })}</dd>
        <dt>{t('groves.joinPolicy.label')}</dt>
        <dd>{joinPolicyLabel(grove.joinPolicy)}</dd>
      </dl>
      {grove.description ? <p class="pre-line">{grove.description}</p> : null}
      <h2>{t('groves.page.membership')}</h2>
      <MembershipControls grove={grove} />
      <h2>{t('groves.page.upcoming')}</h2>
      {grove.myRole === 'organizer' ? (
        <p>
          <a class="button" href={`${urls.eventNew()}?grove=${encodeURIComponent(grove._id)}`}>
            {t('groves.page.createEvent')}
          </a>
        </p>
      ) : null}
      <UpcomingEvents events={events.items} />
      <p>
        <a href={`${urls.events()}?grove=${encodeURIComponent(grove._id)}`}>{t('groves.page.allEvents')}</a>
      </p>
      <ShareHost
        kind="grove"
        slug={grove.slug}
        name={grove.name}
        apiUrl={c.get('web').config.API_URL}
        webUrl={c.get('web').config.WEB_URL}
      />
      {data ? <OrganizerSections grove={grove} data={data} invite={invite} /> : null}
      {federation ? <FederationSection kind="grove" slug={grove.slug} data={federation} /> : null}
    </>,
  );
}

/** A grove POST: load the grove (404 page when unseen), run the call, come back with a notice. */
function groveAction(
  run: (c: Context<WebEnv>, grove: Grove, fields: Record<string, string>) => Promise<string | Response>,
) {
  return async (c: Context<WebEnv>) => {
    const grove = await loadGrove(c);
    if (!grove) return notFoundPage(c);
    const fields = await formFields(c);
    try {
      const outcome = await run(c, grove, fields);
      return outcome instanceof Response ? outcome : redirectWithNotice(c, grovePath(grove), outcome);
    } catch (caught) {
      rethrowUnless(caught, 400, 403, 404, 409, 429);
      return redirectWithNotice(c, grovePath(grove), apiErrorMessage(caught));
    }
  };
}

export const showGrove: Page = async (c) => {
  const grove = await loadGrove(c);
  return grove ? grovePage(c, grove) : notFoundPage(c);
};

export const joinGrove: Page = groveAction(async (c, grove, fields) => {
  const code = fields.code?.trim();
  const result = await api(c).groves.join.mutate({ id: grove._id, ...(code ? { code } : {}) });
  return result.status === 'member'
    ? t('groves.membership.joined', { name: grove.name })
    : t('groves.membership.requestSent');
});

export const leaveGrove: Page = groveAction(async (c, grove, fields) => {
  const leave = async () => {
    await api(c).groves.leave.mutate({ id: grove._id });
    return grove.myRole ? t('groves.membership.left', { name: grove.name }) : t('groves.membership.withdrawn');
  };
  // Withdrawing a request loses nothing; leaving may need an invite or an approval to undo.
  if (!grove.myRole) return leave();
  return confirmFirst(
    c,
    {
      question: t('groves.membership.confirmLeave.question', { name: grove.name }),
      details: (
        <>
          <p>{t(leaveConsequenceKeys[grove.joinPolicy])}</p>
          {grove.myRole === 'organizer' ? <p>{t('groves.membership.confirmLeave.organizer')}</p> : null}
        </>
      ),
      action: urls.groveLeave(grove.slug),
      fields,
      confirmLabel: t('groves.membership.leave'),
      cancelHref: grovePath(grove),
    },
    async () => redirectWithNotice(c, grovePath(grove), await leave()),
  );
});

export const decideJoinRequest: Page = groveAction(async (c, grove, fields) => {
  const handle = pathParam(c, 'handle');
  if (fields.decision === 'accept') {
    await api(c).groves.acceptJoinRequest.mutate({ id: grove._id, handle });
    return t('groves.organizers.accepted', { handle });
  }
  await api(c).groves.declineJoinRequest.mutate({ id: grove._id, handle });
  return t('groves.organizers.declined', { handle });
});

export const removeGroveMember: Page = groveAction(async (c, grove, fields) => {
  const handle = pathParam(c, 'handle');
  const request = {
    action: urls.groveMember(grove.slug, handle),
    fields,
    cancelHref: grovePath(grove),
  };
  if (fields.decision === 'ban') {
    return confirmFirst(
      c,
      {
        ...request,
        question: t('groves.organizers.confirmBan.question', { handle, name: grove.name }),
        details: <p>{t('groves.organizers.confirmBan.details', { handle })}</p>,
        confirmLabel: t('groves.organizers.ban', { handle }),
        reason: banReason(),
      },
      async (reason) => {
        await api(c).groves.ban.mutate({ id: grove._id, handle, reason });
        return redirectWithNotice(c, grovePath(grove), t('groves.organizers.bannedNotice', { handle }));
      },
    );
  }
  return confirmFirst(
    c,
    {
      ...request,
      question: t('groves.organizers.confirmRemove.question', { handle, name: grove.name }),
      details: <p>{t('groves.organizers.confirmRemove.details', { handle })}</p>,
      confirmLabel: t('groves.organizers.remove', { handle }),
    },
    async () => {
      await api(c).groves.removeMember.mutate({ id: grove._id, handle });
      return redirectWithNotice(c, grovePath(grove), t('groves.organizers.removed', { handle }));
    },
  );
});

export const liftGroveBan: Page = groveAction(async (c, grove) => {
  const handle = pathParam(c, 'handle');
  await api(c).groves.unban.mutate({ id: grove._id, handle });
  return t('groves.organizers.lifted', { handle });
});

// The code is shown once, in this answer (not through a redirect or cookie).
export const createGroveInvite: Page = groveAction(async (c, grove, fields) => {
  const invite = await api(c).groves.createInvite.mutate({
    id: grove._id,
    maxUses: Number(fields.maxUses) || 1,
    expiresInHours: Number(fields.expiresInHours) || 168,
  });
  return grovePage(c, grove, invite);
});

export const updateGroveSettings: Page = groveAction(async (c, grove, fields) => {
  const updated = await api(c).groves.update.mutate({
    grove: grove._id,
    name: fields.name ?? grove.name,
    description: fields.description ?? grove.description,
    joinPolicy: (fields.joinPolicy || grove.joinPolicy) as JoinPolicy,
  });
  return redirectWithNotice(c, grovePath(updated), t('groves.organizers.saved'));
});
