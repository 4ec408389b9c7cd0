import type { FastifyInstance } from 'fastify';
import type { ChannelRegistry } from '../platform/live/channels.js';
import type { TenantRegistry } from '../platform/tenancy.js';

/** What an area gets when it registers: its scoped app and the registries it may add to. */
export interface ModuleContext {
  channels: ChannelRegistry;
  tenants: TenantRegistry;
}

export interface Module {
  name: string;
  register(app: FastifyInstance, ctx: ModuleContext): Promise<void> | void;
}
