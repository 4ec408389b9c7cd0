/** Lookups of the contacts book (statuses, agent-flow statuses, sources, carriers, API vendors, groups, pools, tags). */
import { z } from 'zod';
import { crudSchemas, dataList } from './params.js';

export const TAG_COLORS = ['blue', 'green', 'red', 'orange', 'yellow', 'purple', 'pink', 'teal', 'gray'] as const;
export const STATUS_COLORS = TAG_COLORS;

const name = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
const id = z.number().int().positive();

export const Status = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  position: z.number(),
  active: z.boolean(),
});
export const StatusBody = z.strictObject({
  name,
  color: z.enum(STATUS_COLORS).optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});

export const AgentflowStatus = z.object({
  id: z.number(),
  name: z.string(),
  group_id: z.number().nullable(),
  position: z.number(),
  active: z.boolean(),
});
export const AgentflowStatusGroup = z.object({
  id: z.number(),
  name: z.string(),
  position: z.number(),
  statuses: z.array(AgentflowStatus),
});
export const AgentflowStatusesReply = z.object({
  groups: z.array(AgentflowStatusGroup),
  /** Statuses in no group. */
  ungrouped: z.array(AgentflowStatus),
});
export const AgentflowStatusBody = z.strictObject({
  name,
  group_id: id.nullable().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  active: z.boolean().optional(),
});
/**
 * PATCH /v1/admin/agentflow_status_groups: the whole set of groups in one go. Entries with an id rename/reorder,
 * entries without one are created, and groups left out are deleted (their statuses become ungrouped).
 */
export const AgentflowStatusGroupsBody = z.strictObject({
  groups: z
    .array(z.strictObject({ id: id.optional(), name, position: z.number().int().min(0).max(10_000).optional() }))
    .max(100),
});

export const Source = z.object({ id: z.number(), name: z.string(), active: z.boolean() });
export const SourceBody = z.strictObject({ name, active: z.boolean().optional() });

export const Carrier = z.object({ id: z.number(), name: z.string(), naic: z.string().nullable(), active: z.boolean() });
export const CarrierBody = z.strictObject({
  name,
  naic: z
    .string()
    .trim()
    .regex(/^(\d{5})?$/, 'must be a 5-digit NAIC code')
    .nullable()
    .optional(),
  active: z.boolean().optional(),
});
export const CarriersQuery = z.strictObject({ q: z.string().trim().max(100).optional() });

export const ApiVendor = z.object({
  id: z.number(),
  vendor_name: z.string(),
  vendor_type: z.string(),
  active: z.boolean(),
});

export const Group = z.object({ id: z.number(), name: z.string(), contacts_count: z.number() });
export const GroupBody = z.strictObject({ name });

export const PoolHolder = z.object({ id: z.number(), name: z.string() });
export const Pool = z.object({
  id: z.number(),
  name: z.string(),
  holders: z.array(PoolHolder),
  contacts_count: z.number(),
});
export const PoolBody = z.strictObject({ name, holder_ids: z.array(id).max(500).optional() });
export const PoolUpdateBody = z.strictObject({ name: name.optional(), holder_ids: z.array(id).max(500).optional() });

export const Tag = z.object({ id: z.number(), name: z.string(), color: z.string(), contacts_count: z.number() });
export const TagsListBody = z.strictObject({
  search: z.string().trim().max(100).optional(),
  page: z.number().int().min(1).max(100_000).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export const TagBody = z.strictObject({ name: z.string().trim().min(1).max(50), color: z.enum(TAG_COLORS) });

export const ListMeta = z.object({
  current_page: z.number(),
  limit: z.number(),
  total_count: z.number(),
  total_pages: z.number(),
});

export const StatusList = dataList(Status);
export const SourceList = dataList(Source);
export const ApiVendorList = dataList(ApiVendor);
export const CarrierList = dataList(Carrier);
export const GroupList = dataList(Group);
export const PoolList = dataList(Pool);
export const TagPage = z.object({ data: z.array(Tag), meta: ListMeta });

export const StatusCrud = crudSchemas(Status, StatusBody);
export const AgentflowStatusCrud = crudSchemas(AgentflowStatus, AgentflowStatusBody);
export const SourceCrud = crudSchemas(Source, SourceBody);
export const CarrierCrud = crudSchemas(Carrier, CarrierBody);
