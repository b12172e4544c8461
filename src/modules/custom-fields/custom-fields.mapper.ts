import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { CustomFieldEntity } from './custom-field.entity';
import type { CustomFieldResponse } from './dto/custom-field.response';

export function toCustomFieldResponse(field: CustomFieldEntity): CustomFieldResponse {
  return {
    id: toPublicId(ID_PREFIX.customField, field.id),
    key: field.key,
    label: field.label,
    type: field.type,
    options: field.options,
    required: field.required,
    created_at: field.createdAt.toISOString(),
    updated_at: field.updatedAt.toISOString(),
  };
}
