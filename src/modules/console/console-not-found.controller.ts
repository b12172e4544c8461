import { All, Controller, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { ApiRequest } from '../../common/http/request';
import { Public } from '../../platform/auth/auth.decorator';
import { ConsolePages } from './console-pages.renderer';
import { ConsoleSessionsService } from './console-sessions.service';

/**
 * Any other path under /console: the console's 404 page in the request's language (in the console
 * layout when signed in), never the API's JSON problem. Registered after every console controller.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleNotFoundController {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly pages: ConsolePages,
  ) {}

  @All('*path')
  @Public()
  async notFound(@Req() req: ApiRequest, @Res() res: Response): Promise<void> {
    const session = await this.sessions.resolve(req);
    await this.pages.error(res, { lang: req.lang, kind: 'notFound', requestId: req.id, session });
  }
}
