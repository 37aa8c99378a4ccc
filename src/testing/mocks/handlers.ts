import { siteHandlers } from './handlers/site';
import { commonHandlers } from './handlers/common';
import { configHandlers } from './handlers/config';
import { authHandlers } from './handlers/auth';

export const handlers = [...siteHandlers, ...commonHandlers, ...configHandlers, ...authHandlers];
