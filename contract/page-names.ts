/**
 * The names a route item may give as `component` (spec §2): the page modules of page-registry.ts, and the
 * two containers of the remote route list. A plain list with no imports, so the organiser CLI and the
 * reference server check site configurations against the very list the SPA renders from.
 */
export const PAGE_COMPONENTS = [
  'Home',
  'DocumentPage',
  'NewsPage',
  'PartnerPage',
  'GalleryPage',
  'VideoPage',
  'ImageCollection',
  'VideoCollection',
  'RegistrationSearch',
  'ScoreSearch',
  'PbSearch',
  'MultipleScoreSearch',
  'ImageSearch',
  'CertificateVerify',
  'SignUp',
  'Ballot',
  'MyIndex',
  'MyOrder',
  'MyProfile',
  'MyPassword',
  'MyParticipants',
  'MyLetter',
  'MyPickup',
  'MyRefund',
  'MyMessages',
  'PickupCheckIn',
] as const;

export type PageComponentName = (typeof PAGE_COMPONENTS)[number];

/** 'Layout' marks the container of the remote route list (route-model.ts hangs its children under '/'). */
export const LAYOUT = 'Layout';
/** A 'ParentView' group is flattened: its children become routes of their own. */
export const PARENT_VIEW = 'ParentView';
export const ROUTE_CONTAINERS = [LAYOUT, PARENT_VIEW] as const;

/** Every name a route item's `component` may hold. */
export const ROUTE_COMPONENTS: readonly string[] = [...PAGE_COMPONENTS, ...ROUTE_CONTAINERS];
