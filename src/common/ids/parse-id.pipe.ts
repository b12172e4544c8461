import { Injectable, PipeTransform } from '@nestjs/common';
import { IdPrefix, requirePublicId } from './id';

/** Route-param pipe: `@Param('id', new ParseIdPipe('mem', 'member'))` yields the uuid or a 404. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, string> {
  constructor(
    private readonly prefix: IdPrefix,
    private readonly resource: string,
  ) {}

  transform(value: string): string {
    return requirePublicId(this.prefix, value, this.resource);
  }
}
