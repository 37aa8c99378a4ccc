import { siteHandlers } from './handlers/site';
import { commonHandlers } from './handlers/common';
import { configHandlers } from './handlers/config';

export const handlers = [...siteHandlers, ...commonHandlers, ...configHandlers];
