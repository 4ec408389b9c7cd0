/**
 * What one entry of the /v1 contract is, and the types the browser's client derives from it. An entry names the
 * very zod objects its server route validates and serializes with, so the browser is typed from what the server
 * checks; apps/server/test/contract.test.ts fails when the two drift.
 */
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * A multipart/form-data body: its fields, files as `z.file()`. The route reads the parts itself; the same object
   * documents the form in the OpenAPI document (the route's `schema.multipart`).
   */
  form?: z.ZodObject;
  /** The success reply (200, 201 or 202); `NoContent` for a 204. */
  reply: z.ZodType;
  /** The route may also answer 204 with no body (sign-out answers the user only when an impersonation ends). */
  noContent?: true;
}

export type ContractMap = Record<`${Method} /v1/${string}`, Endpoint>;

/** Keeps the literal keys and exact schema types of an area's entries while checking their shape. */
export function defineContract<const C extends ContractMap>(entries: C): C {
  return entries;
}

// ---- Types the browser derives --------------------------------------------------------------------------------
type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/** Path parameters are typed from the template: a browser holds ids as numbers or as the strings of a URL. */
export type ParamsIn<K extends string> = [PathParamNames<K>] extends [never]
  ? undefined
  : { [N in PathParamNames<K>]: string | number };

type Defined<T> = T extends z.ZodType ? T : never;

/** A coerced query field takes `unknown` as input; the browser passes what the server turns it into. */
/** A flag read from "true"/"false" may be given as a boolean: the client writes it as text. */
type QueryField<I, O> = unknown extends I ? O : string extends I ? I : 'true' extends I ? I | boolean : I;
/** The client leaves out a null field, so an optional field may be given as null. */
type Nullable<T> = undefined extends T ? T | null : T;
export type QueryIn<S> = S extends z.ZodType
  ? {
      [F in keyof z.input<S>]: Nullable<
        QueryField<z.input<S>[F], F extends keyof z.output<S> ? z.output<S>[F] : never>
      >;
    }
  : undefined;

/** Optional when every field is. */
type MaybeOptional<T> = T extends undefined ? undefined : Record<string, never> extends T ? T | undefined : T;

/** A multipart route takes FormData; one that also takes JSON (its `body`) takes either. */
export type BodyIn<E extends Endpoint> =
  | (E['form'] extends z.ZodType ? FormData : never)
  | (E['body'] extends z.ZodType ? z.input<Defined<E['body']>> : E['form'] extends z.ZodType ? never : undefined);

/** What a call resolves to: the reply's output type (`undefined` for a 204). */
export type ReplyOf<E extends Endpoint> =
  | (E['reply'] extends z.ZodNull ? undefined : z.output<E['reply']>)
  | (E['noContent'] extends true ? undefined : never);

type OptionalIfUndefined<T> = { [F in keyof T as undefined extends T[F] ? never : F]: T[F] } & {
  [F in keyof T as undefined extends T[F] ? F : never]?: T[F];
};

/** The inputs of a call: `params` when the path has some, `query` and `body` when the route takes them. */
export type CallInput<K extends string, E extends Endpoint> = OptionalIfUndefined<{
  params: ParamsIn<K>;
  query: MaybeOptional<QueryIn<E['query']>>;
  body: MaybeOptional<BodyIn<E>>;
}>;
