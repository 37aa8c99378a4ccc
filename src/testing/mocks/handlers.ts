import { siteHandlers } from './handlers/site';
import { commonHandlers } from './handlers/common';
import { configHandlers } from './handlers/config';
import { authHandlers } from './handlers/auth';
import { searchHandlers } from './handlers/search';
import { uploadHandlers } from './handlers/uploads';
import { registrationHandlers } from './handlers/registration';

export const handlers = [
  ...siteHandlers,
  ...commonHandlers,
  ...configHandlers,
  ...authHandlers,
  ...searchHandlers,
  ...uploadHandlers,
  ...registrationHandlers,
];
