/**
 * The groups of fields `FEDERATION_HIDDEN` may hide from the subgraph
 * (src/federation/subgraph-sdl.ts says which fields each holds): their
 * names are a setting, read with the rest of the config.
 */
export type FieldGroup = 'operational' | 'raw';

export const FIELD_GROUPS: readonly FieldGroup[] = ['operational', 'raw'];
