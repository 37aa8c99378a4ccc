/** The registration-form documents the organiser published (issue 13 §1; cli `site form-publish`). */
import type { PublishedForm } from '#contract/registration-form';
import type { Repositories } from '../../db/repositories.ts';

/** The latest publication of the race's form for an entry channel, or undefined when none was published. */
export const publishedForm = (
  repos: Repositories,
  raceId: string,
  channel: string,
): Promise<PublishedForm | undefined> => repos.registrationForms.latest(raceId, channel);
