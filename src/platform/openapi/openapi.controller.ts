import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { Public } from '../auth/auth.decorator';

export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');

/** Holds the document built at boot (main.ts sets it once the app exists). */
export class OpenApiDocumentHolder {
  document: OpenAPIObject | null = null;
  yaml: string | null = null;
}

@ApiExcludeController()
@Controller('v1')
export class OpenApiController {
  constructor(@Inject(OPENAPI_DOCUMENT) private readonly holder: OpenApiDocumentHolder) {}

  @Get('openapi.json')
  @Public()
  json(): OpenAPIObject | null {
    return this.holder.document;
  }

  @Get('openapi.yaml')
  @Public()
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  yaml(): string {
    this.holder.yaml ??= dump(this.holder.document, { noRefs: true });
    return this.holder.yaml;
  }
}
