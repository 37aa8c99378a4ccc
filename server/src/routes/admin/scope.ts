/**
 * What an area's console routes get from the console's session scope (routes/admin/index.ts), which has
 * already found the signed-in member (401 otherwise) and checked the CSRF header of every changing call. An
 * area's routes live in their own file (routes/admin/<area>.ts) as `function <area>Routes(scope, app, helpers)`
 * and are registered with one line in index.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { StaffPermission } from '#contract/staff';
import type { fail } from '../../lib/envelope.ts';
import type { AuditActor } from '../../services/staff/audit.ts';

export interface ConsoleRouteHelpers {
  /** The console's API prefix (`/api/admin`). */
  prefix: string;
  /**
   * The refusal to answer when the member may not (their role lacks `permission`, their first steps are
   * pending, or they are limited to races other than `raceId`), else undefined: `refused(...) ?? answer`.
   */
  refused: (
    request: FastifyRequest,
    permission: StaffPermission,
    raceId?: string,
  ) => ReturnType<typeof fail> | undefined;
  /** Who did it, for the audit log. */
  actor: (request: FastifyRequest) => AuditActor;
}
