import './fieldKinds';

export { defineEntity, entityKey, type EntityDef, type AnyEntity, type EntityColumn, type ColumnContext, type EntityFilter, type EntityExport, type ExportFormat, type FieldDef, type FieldKindOptions, type FieldKindName, type Draft, type FieldErrors, type PermSet, type Translate } from './types';
export { registerFieldKind, fieldKind, type FieldKind, type FieldControlProps } from './registry';
export { EntityField } from './fieldKinds';
export { blankDraft, toDraft, parseDraft, errorOf, clearErrors } from './draft';
export { useEntityDraft, useEntityForm, type EntityDraft, type DraftForm, type EntityFormOptions } from './useEntityForm';
export { useCrudQueries, crudResource, type CrudResource, type CrudEndpoints, type ListQuery } from './useCrudQueries';
export { EntityFields } from './EntityFields';
export { EntityListScreen, type EntityListScreenProps } from './EntityListScreen';
export { EntityFormScreen } from './EntityFormScreen';
export { EntityFormDialog, useDialogParam } from './EntityFormDialog';
export { selectFilter, type SelectFilterSpec } from './selectFilter';
export { dateRangeFilter, rangeDays, rangeHeld, RANGE_SEPARATOR, urlRange, type EmptyRange } from './dateRangeFilter';
