// Every route the spec lists that is mounted but not built yet lives in this folder, one file
// per domain. Each is a real procedure (auth level, input schema, output schema, REST path)
// whose body is notImplemented(): it answers 501 `not_implemented` only after auth and
// validation pass. Routes here carry `unbuilt: true` in their meta, which the OpenAPI document
// shows as `x-unbuilt` and the conformance tests read.
//
// This file is the one list of them, already under their final tRPC paths (the naming rule is
// in server/trpc/router.ts): building a route moves its procedure into its domain router under
// the same namespace and name, so no client's tRPC path changes.
import { accountExtrasProcedures as account } from './account-extras.js';
import { actionsProcedures as actions } from './actions.js';
import { adminContentProcedures as adminContent } from './admin-content.js';
import { companionProcedures as companion } from './companion.js';
import { guidesProcedures as guides } from './guides.js';
import { mediaProcedures as media } from './media.js';
import { placeExtrasProcedures as placeExtras } from './places-extras.js';
import { socialSignInProcedures as socialSignIn } from './social-sign-in.js';
import { socialProcedures as social } from './social.js';
import { uploadsProcedures as uploads } from './uploads.js';

/** Unbuilt procedures of namespaces that also hold built ones; merged into those routers. */
export const unbuiltInBuiltNamespaces = {
  auth: { apple: socialSignIn.apple, google: socialSignIn.google },
  me: {
    getNotificationPreferences: account.getNotificationPreferences,
    updateNotificationPreferences: account.updateNotificationPreferences,
    setActionAggregateOptIn: account.setActionAggregateOptIn,
  },
  places: { listReviews: placeExtras.listReviews, createReview: placeExtras.createReview },
};

/** Namespaces with no built route yet. */
export const unbuiltNamespaces = {
  pushTokens: { register: account.registerPushToken, delete: account.deletePushToken },
  placeLists: {
    list: placeExtras.listLists,
    create: placeExtras.createList,
    update: placeExtras.updateList,
    delete: placeExtras.deleteList,
  },
  friends: {
    list: social.listFriends,
    listRequests: social.listFriendRequests,
    createInvite: social.createInvite,
    acceptInvite: social.acceptInvite,
    remove: social.removeFriend,
  },
  feed: { list: social.feed },
  posts: {
    create: social.createPost,
    get: social.getPost,
    delete: social.deletePost,
    react: social.react,
    unreact: social.unreact,
    listComments: social.listComments,
    createComment: social.createComment,
    save: social.savePost,
    unsave: social.unsavePost,
  },
  handles: { listPosts: social.handlePosts },
  reports: {
    create: social.createReport,
    adminList: adminContent.listReports,
    resolve: adminContent.resolveReport,
  },
  uploads: { presignImage: uploads.presignImage, createVideo: uploads.createVideo },
  media: {
    list: media.list,
    get: media.get,
    save: media.save,
    unsave: media.unsave,
    adminList: adminContent.listMedia,
    adminCreate: adminContent.createMedia,
    adminGet: adminContent.getMedia,
    adminUpdate: adminContent.updateMedia,
    adminDelete: adminContent.deleteMedia,
  },
  guides: {
    list: guides.list,
    get: guides.get,
    adminList: adminContent.listGuides,
    adminCreate: adminContent.createGuide,
    adminGet: adminContent.getGuide,
    adminUpdate: adminContent.updateGuide,
    adminDelete: adminContent.deleteGuide,
  },
  actions: { list: actions.list, create: actions.create, export: actions.export, delete: actions.delete },
  companion: {
    chat: companion.chat,
    listConversations: companion.listConversations,
    pinConversation: companion.pin,
    deleteConversation: companion.deleteConversation,
  },
};
