import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateCustomFieldDto } from './create-custom-field.dto';

/** The label, the options of a select field and `required`; the key and the type are fixed (members hold values of them). */
export class UpdateCustomFieldDto extends PartialType(OmitType(CreateCustomFieldDto, ['key', 'type'] as const)) {}
