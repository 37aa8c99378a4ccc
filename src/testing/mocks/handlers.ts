import { siteHandlers } from './handlers/site';
import { commonHandlers } from './handlers/common';
import { configHandlers } from './handlers/config';
import { authHandlers } from './handlers/auth';
import { searchHandlers } from './handlers/search';
import { uploadHandlers } from './handlers/uploads';
import { registrationHandlers } from './handlers/registration';
import { entryHandlers } from './handlers/entry';
import { letterHandlers } from './handlers/letter';
import { participantHandlers } from './handlers/participants';
import { pickupHandlers } from './handlers/pickup';

export const handlers = [
  ...siteHandlers,
  ...commonHandlers,
  ...configHandlers,
  ...authHandlers,
  ...searchHandlers,
  ...uploadHandlers,
  // Before the registration handlers: the entry form's channel is answered here, the others there.
  ...entryHandlers,
  ...letterHandlers,
  ...registrationHandlers,
  ...participantHandlers,
  ...pickupHandlers,
];
