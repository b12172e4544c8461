import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { OAuthError } from './oauth-error';

/** The answer RFC 6749 §5.2 asks for: JSON `{error, error_description}`, never cached; a 401 carries the Basic challenge. */
export function sendOAuthError(res: Response, error: OAuthError): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  if (error.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="church-api", charset="UTF-8"');
  res.status(error.status).json({ error: error.error, error_description: error.description });
}

/** On the token and revocation routes: OAuthError as RFC 6749 JSON; every other error goes on to the problem filter. */
@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter {
  catch(error: OAuthError, host: ArgumentsHost): void {
    sendOAuthError(host.switchToHttp().getResponse<Response>(), error);
  }
}
