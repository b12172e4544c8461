import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { newUuid } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import type { ListSpec } from '../../common/lists/list-spec';
import { ListTotals } from '../../platform/list-totals/list-totals.service';
import { CustomFieldEntity, CustomFieldType } from './custom-field.entity';
import { customFieldFilters } from './custom-field-filters';
import { CUSTOM_FIELD_LIST } from './custom-fields.list';
import { toCustomFieldResponse } from './custom-fields.mapper';
import { CustomFieldsRepository } from './custom-fields.repository';
import type { CreateCustomFieldDto } from './dto/create-custom-field.dto';
import type { CustomFieldResponse } from './dto/custom-field.response';
import type { UpdateCustomFieldDto } from './dto/update-custom-field.dto';

const CUSTOM_FIELD_PARAM = /^custom_fields\./;

@Injectable()
export class CustomFieldsService {
  constructor(
    private readonly fields: CustomFieldsRepository,
    private readonly totals: ListTotals,
  ) {}

  async create(dto: CreateCustomFieldDto): Promise<CustomFieldResponse> {
    const issues = optionsIssues(dto.type, dto.options);
    if (issues.length) throw AppError.validation(issues);
    const now = new Date();
    const field = Object.assign(new CustomFieldEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      key: dto.key,
      label: dto.label.trim(),
      type: dto.type,
      options: dto.type === 'select' ? dto.options! : null,
      required: dto.required ?? false,
      createdAt: now,
      updatedAt: now,
    });
    if (!(await this.fields.insert(field))) {
      throw new AppError('conflict', { reason: `a custom field with key ${dto.key} exists` }, [
        { field: 'key', issue: 'duplicate' },
      ]);
    }
    return toCustomFieldResponse(field);
  }

  async get(id: string): Promise<CustomFieldResponse> {
    return toCustomFieldResponse(await this.require(id));
  }

  /** The definitions among `ids` as GET returns them, by id (the changes feed's objects), in one query. */
  async getMany(ids: string[]): Promise<Map<string, CustomFieldResponse>> {
    return new Map((await this.fields.findManyByIds(ids)).map((f) => [f.id, toCustomFieldResponse(f)]));
  }

  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<CustomFieldResponse>> {
    const page = await this.fields.list(parseListQuery(rawQuery, CUSTOM_FIELD_LIST));
    return toEnvelope(page, toCustomFieldResponse);
  }

  /** Label, options (select fields) and `required`. Members' existing values are not checked again. */
  async update(id: string, dto: UpdateCustomFieldDto): Promise<CustomFieldResponse> {
    const cleared = (['label', 'required', 'options'] as const).filter((f) => dto[f] === null);
    const field = await this.require(id, 'for_no_key_update');
    const issues: FieldIssue[] = cleared
      .filter((f) => f !== 'options' || field.type === 'select')
      .map((f) => ({ field: f, issue: 'required' }));
    if (dto.options !== undefined && dto.options !== null) issues.push(...optionsIssues(field.type, dto.options));
    if (issues.length) throw AppError.validation(issues);
    const changes: Partial<CustomFieldEntity> = { updatedAt: new Date() };
    if (dto.label != null) changes.label = dto.label.trim();
    if (dto.options != null) changes.options = dto.options;
    if (dto.required != null) changes.required = dto.required;
    await this.fields.update(id, changes);
    return toCustomFieldResponse(Object.assign(field, changes));
  }

  /**
   * Deletes the definition and takes its key out of every member, in one statement, with no event
   * per member. Locked first: a member write holding this definition (FOR KEY SHARE) finishes
   * first and its value is removed here; one that comes after finds the key unknown (422).
   */
  async remove(id: string): Promise<void> {
    const field = await this.require(id, 'pessimistic_write');
    await this.fields.removeKeyFromMembers(field.key, new Date());
    await this.fields.delete(field.id);
    this.totals.invalidate('members');
  }

  /**
   * The church's definitions, for checking a member write (one query). When the write sets keys
   * (`holding`), the definitions are locked FOR KEY SHARE until it commits: a concurrent delete of
   * one waits, so that it can then take the key out of this member too.
   */
  definitions(holding: boolean): Promise<CustomFieldEntity[]> {
    return this.fields.findAll(holding ? 'for_key_share' : undefined);
  }

  /** A member list spec with a `custom_fields.<key>` filter per definition, when the query names one (an unknown key stays a 400). */
  async memberListSpec<T>(base: ListSpec<T>, rawQuery: Record<string, unknown>): Promise<ListSpec<T>> {
    if (!Object.keys(rawQuery).some((k) => CUSTOM_FIELD_PARAM.test(k))) return base;
    return { ...base, filters: { ...base.filters, ...customFieldFilters(await this.fields.findAll()) } };
  }

  private async require(id: string, lock?: 'for_no_key_update' | 'pessimistic_write'): Promise<CustomFieldEntity> {
    const field = await this.fields.findById(id, lock);
    if (!field) throw AppError.notFound('custom field');
    return field;
  }
}

/** Options: a non-empty list without repeats for a select field, nothing for the other types. */
function optionsIssues(type: CustomFieldType, options: string[] | null | undefined): FieldIssue[] {
  if (type !== 'select')
    return options === undefined || options === null ? [] : [{ field: 'options', issue: 'not_allowed' }];
  if (options === undefined || options === null || options.length === 0)
    return [{ field: 'options', issue: 'required' }];
  if (options.some((o) => o.trim() === '')) return [{ field: 'options', issue: 'invalid' }];
  if (new Set(options).size !== options.length) return [{ field: 'options', issue: 'duplicate' }];
  return [];
}
