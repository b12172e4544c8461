import type { Language } from '../../common/i18n/language';
import type { Scope } from '../../platform/auth/scopes';

/** An error page: its heading and its explanation (`{app}` and `{church}` placeholders where known). */
export interface PageError {
  heading: string;
  message: string;
}

export type PageErrorKind =
  | 'unknown_client'
  | 'invalid_redirect'
  | 'church_inactive'
  | 'request_invalid'
  | 'csrf'
  | 'form_invalid'
  | 'form_media_type'
  | 'form_too_large'
  | 'unavailable';

/** Every word of the OAuth pages, per language (es default; en and pt by Accept-Language). */
export interface OAuthPageTexts {
  footer: string;
  staffOnly: string;
  signIn: {
    title: string;
    heading: string;
    /** `{app}` */
    subtitle: string;
    email: string;
    password: string;
    submit: string;
    /** `{app}`, `{church}` */
    note: string;
    missing: string;
    wrong: string;
    /** `{minutes}` */
    throttled: string;
  };
  consent: {
    /** `{app}` */
    title: string;
    /** `{app}`, `{church}` */
    heading: string;
    lead: string;
    /** `{email}` */
    signedInAs: string;
    /** `{app}` */
    intro: string;
    allow: string;
    deny: string;
    /** `{host}` */
    returnNote: string;
    revokeNote: string;
    /** `{app}`, `{role}` */
    none: string;
    /** `{app}` */
    back: string;
  };
  error: {
    title: string;
    reference: string;
    /** `{app}` */
    back: string;
    /** How a message names an app it does not know. */
    theApp: string;
  } & Record<PageErrorKind, PageError>;
  roles: Record<'org_admin' | 'staff' | 'finance' | 'group_leader' | 'volunteer', string>;
  /** Each scope in plain words: what the app will be able to do, and over what. */
  scopes: Record<Scope, { title: string; detail: string }>;
}

const es: OAuthPageTexts = {
  footer: 'Conexión segura · La aplicación nunca ve su contraseña',
  staffOnly: 'Acceso para el equipo de la iglesia',
  signIn: {
    title: 'Iniciar sesión',
    heading: 'Inicie sesión',
    subtitle: 'para continuar en {app}',
    email: 'Correo electrónico',
    password: 'Contraseña',
    submit: 'Iniciar sesión',
    note: 'Use la cuenta que tiene en {church}. Luego verá qué podrá hacer {app} antes de decidir.',
    missing: 'Escriba su correo electrónico y su contraseña.',
    wrong: 'Correo electrónico o contraseña incorrectos.',
    throttled: 'Demasiados intentos fallidos. Vuelva a intentarlo en {minutes} min.',
  },
  consent: {
    title: 'Autorizar {app}',
    heading: '{app} quiere acceder a {church}',
    lead: 'Revise lo que la aplicación podrá hacer en su nombre.',
    signedInAs: 'Sesión iniciada como {email}',
    intro: 'Si lo permite, {app} podrá:',
    allow: 'Permitir',
    deny: 'Denegar',
    returnNote: 'Después volverá a {host}.',
    revokeNote: 'Puede retirar este acceso cuando quiera desde sus aplicaciones autorizadas.',
    none: 'Su rol ({role}) no permite ninguno de los permisos que pide {app}. No se compartirá nada.',
    back: 'Volver a {app}',
  },
  error: {
    title: 'No se puede continuar',
    reference: 'Referencia:',
    back: 'Volver a {app}',
    theApp: 'la aplicación',
    unknown_client: {
      heading: 'Aplicación desconocida',
      message:
        'El enlace que siguió nombra una aplicación que no está registrada aquí. Vuelva a la aplicación e inténtelo de nuevo, o avise a quien la desarrolla.',
    },
    invalid_redirect: {
      heading: 'Dirección de regreso no registrada',
      message:
        '{app} pidió enviarle a una dirección que no tiene registrada. Por su seguridad no le enviaremos allí. Avise a quien desarrolla la aplicación.',
    },
    church_inactive: {
      heading: 'Cuenta suspendida',
      message: 'La cuenta de {church} está suspendida y no puede autorizar aplicaciones por ahora.',
    },
    request_invalid: {
      heading: 'Este inicio de sesión ya no es válido',
      message: 'Caducó (dura 10 minutos) o ya se usó. Vuelva a la aplicación y empiece de nuevo.',
    },
    csrf: {
      heading: 'No pudimos verificar el formulario',
      message:
        'El formulario no se envió desde esta página o desde el navegador que empezó el inicio de sesión. Vuelva a la aplicación y empiece de nuevo.',
    },
    form_invalid: {
      heading: 'Formulario no válido',
      message: 'No pudimos leer el formulario. Vuelva a la aplicación y empiece de nuevo.',
    },
    form_media_type: {
      heading: 'Formulario no válido',
      message: 'El formulario debe enviarse como application/x-www-form-urlencoded.',
    },
    form_too_large: { heading: 'Formulario demasiado grande', message: 'El formulario supera el tamaño permitido.' },
    unavailable: {
      heading: 'Servicio no disponible',
      message: 'No podemos atenderle en este momento. Inténtelo de nuevo en unos minutos.',
    },
  },
  roles: {
    org_admin: 'administración',
    staff: 'equipo',
    finance: 'finanzas',
    group_leader: 'líder de grupo',
    volunteer: 'voluntariado',
  },
  scopes: {
    'read:members': {
      title: 'Ver las personas',
      detail: 'Nombres, datos de contacto, familias, etiquetas y visitantes',
    },
    'write:members': { title: 'Agregar y modificar personas', detail: 'Personas, familias, etiquetas y visitantes' },
    'read:donations': {
      title: 'Ver las ofrendas y donaciones',
      detail: 'Donaciones, fondos, lotes, compromisos y donaciones periódicas',
    },
    'write:donations': {
      title: 'Registrar y modificar donaciones',
      detail: 'Donaciones, fondos, lotes, compromisos y donaciones periódicas',
    },
    'read:attendance': { title: 'Ver la asistencia', detail: 'Asistencia a reuniones y registros de entrada' },
    'write:attendance': { title: 'Registrar asistencia', detail: 'Marcar asistencia y registrar entradas y salidas' },
    'read:events': { title: 'Ver los eventos', detail: 'Eventos e inscripciones' },
    'write:events': { title: 'Crear y modificar eventos', detail: 'Eventos e inscripciones' },
    'read:groups': { title: 'Ver los grupos', detail: 'Grupos y quiénes los integran' },
    'write:groups': { title: 'Crear y modificar grupos', detail: 'Grupos y quiénes los integran' },
    'read:reports': { title: 'Ver los informes', detail: 'Informes y estadísticas de la iglesia' },
    'read:campuses': { title: 'Ver las sedes', detail: 'Sedes de la iglesia' },
    'write:campuses': { title: 'Crear y modificar sedes', detail: 'Sedes de la iglesia' },
    'read:prayer_requests': {
      title: 'Ver las peticiones de oración',
      detail: 'Peticiones de oración y su seguimiento',
    },
    'write:prayer_requests': {
      title: 'Agregar y modificar peticiones de oración',
      detail: 'Peticiones de oración y su seguimiento',
    },
    'write:notifications': {
      title: 'Enviar avisos a las personas',
      detail: 'Correos y notificaciones en nombre de la iglesia',
    },
    'admin:*': {
      title: 'Control total de la cuenta',
      detail: 'Configuración, claves de acceso, aplicaciones y todos los datos de la iglesia',
    },
  },
};

const en: OAuthPageTexts = {
  footer: 'Secure connection · The app never sees your password',
  staffOnly: 'Church staff sign-in',
  signIn: {
    title: 'Sign in',
    heading: 'Sign in',
    subtitle: 'to continue to {app}',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    note: 'Use your {church} account. Next you will see what {app} will be able to do before you decide.',
    missing: 'Enter your email and your password.',
    wrong: 'Wrong email or password.',
    throttled: 'Too many failed attempts. Try again in {minutes} min.',
  },
  consent: {
    title: 'Authorize {app}',
    heading: '{app} wants to access {church}',
    lead: 'Review what the app will be able to do on your behalf.',
    signedInAs: 'Signed in as {email}',
    intro: 'If you allow it, {app} will be able to:',
    allow: 'Allow',
    deny: 'Deny',
    returnNote: 'You will then return to {host}.',
    revokeNote: 'You can remove this access at any time from your authorized apps.',
    none: 'Your role ({role}) allows none of the permissions {app} asks for. Nothing will be shared.',
    back: 'Back to {app}',
  },
  error: {
    title: 'Cannot continue',
    reference: 'Reference:',
    back: 'Back to {app}',
    theApp: 'the app',
    unknown_client: {
      heading: 'Unknown app',
      message:
        'The link you followed names an app that is not registered here. Go back to the app and try again, or let its developer know.',
    },
    invalid_redirect: {
      heading: 'Return address not registered',
      message:
        '{app} asked to send you to an address it has not registered. For your safety you will not be sent there. Let the app’s developer know.',
    },
    church_inactive: {
      heading: 'Account suspended',
      message: 'The {church} account is suspended and cannot authorize apps for now.',
    },
    request_invalid: {
      heading: 'This sign-in is no longer valid',
      message: 'It expired (it lasts 10 minutes) or was already used. Go back to the app and start again.',
    },
    csrf: {
      heading: 'We could not verify this form',
      message:
        'The form was not sent from this page, or from the browser that started the sign-in. Go back to the app and start again.',
    },
    form_invalid: {
      heading: 'Invalid form',
      message: 'We could not read the form. Go back to the app and start again.',
    },
    form_media_type: {
      heading: 'Invalid form',
      message: 'The form must be sent as application/x-www-form-urlencoded.',
    },
    form_too_large: { heading: 'Form too large', message: 'The form is larger than allowed.' },
    unavailable: {
      heading: 'Service unavailable',
      message: 'We cannot serve you right now. Please try again in a few minutes.',
    },
  },
  roles: {
    org_admin: 'administrator',
    staff: 'staff',
    finance: 'finance',
    group_leader: 'group leader',
    volunteer: 'volunteer',
  },
  scopes: {
    'read:members': { title: 'See people', detail: 'Names, contact details, households, tags and visitors' },
    'write:members': { title: 'Add and edit people', detail: 'People, households, tags and visitors' },
    'read:donations': { title: 'See giving', detail: 'Donations, funds, batches, pledges and recurring gifts' },
    'write:donations': {
      title: 'Record and edit giving',
      detail: 'Donations, funds, batches, pledges and recurring gifts',
    },
    'read:attendance': { title: 'See attendance', detail: 'Service attendance and check-ins' },
    'write:attendance': { title: 'Record attendance', detail: 'Take attendance and check people in and out' },
    'read:events': { title: 'See events', detail: 'Events and registrations' },
    'write:events': { title: 'Create and edit events', detail: 'Events and registrations' },
    'read:groups': { title: 'See groups', detail: 'Groups and who is in them' },
    'write:groups': { title: 'Create and edit groups', detail: 'Groups and who is in them' },
    'read:reports': { title: 'See reports', detail: 'The church’s reports and statistics' },
    'read:campuses': { title: 'See campuses', detail: 'The church’s campuses' },
    'write:campuses': { title: 'Create and edit campuses', detail: 'The church’s campuses' },
    'read:prayer_requests': { title: 'See prayer requests', detail: 'Prayer requests and their follow-up' },
    'write:prayer_requests': { title: 'Add and edit prayer requests', detail: 'Prayer requests and their follow-up' },
    'write:notifications': {
      title: 'Send messages to people',
      detail: 'Emails and notifications on the church’s behalf',
    },
    'admin:*': {
      title: 'Full control of the account',
      detail: 'Settings, access keys, apps and all of the church’s data',
    },
  },
};

const pt: OAuthPageTexts = {
  footer: 'Conexão segura · O aplicativo nunca vê sua senha',
  staffOnly: 'Acesso da equipe da igreja',
  signIn: {
    title: 'Entrar',
    heading: 'Entre na sua conta',
    subtitle: 'para continuar em {app}',
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    note: 'Use sua conta de {church}. Em seguida você verá o que {app} poderá fazer antes de decidir.',
    missing: 'Informe seu e-mail e sua senha.',
    wrong: 'E-mail ou senha incorretos.',
    throttled: 'Muitas tentativas sem sucesso. Tente novamente em {minutes} min.',
  },
  consent: {
    title: 'Autorizar {app}',
    heading: '{app} quer acessar {church}',
    lead: 'Veja o que o aplicativo poderá fazer em seu nome.',
    signedInAs: 'Conectado como {email}',
    intro: 'Se você permitir, {app} poderá:',
    allow: 'Permitir',
    deny: 'Negar',
    returnNote: 'Depois você voltará para {host}.',
    revokeNote: 'Você pode remover este acesso quando quiser nos seus aplicativos autorizados.',
    none: 'Sua função ({role}) não permite nenhuma das permissões que {app} pede. Nada será compartilhado.',
    back: 'Voltar para {app}',
  },
  error: {
    title: 'Não é possível continuar',
    reference: 'Referência:',
    back: 'Voltar para {app}',
    theApp: 'o aplicativo',
    unknown_client: {
      heading: 'Aplicativo desconhecido',
      message:
        'O link que você seguiu indica um aplicativo que não está registrado aqui. Volte ao aplicativo e tente de novo, ou avise quem o desenvolve.',
    },
    invalid_redirect: {
      heading: 'Endereço de retorno não registrado',
      message:
        '{app} pediu para enviar você a um endereço que não registrou. Para sua segurança, você não será enviado para lá. Avise quem desenvolve o aplicativo.',
    },
    church_inactive: {
      heading: 'Conta suspensa',
      message: 'A conta de {church} está suspensa e não pode autorizar aplicativos no momento.',
    },
    request_invalid: {
      heading: 'Este acesso não é mais válido',
      message: 'Expirou (dura 10 minutos) ou já foi usado. Volte ao aplicativo e comece de novo.',
    },
    csrf: {
      heading: 'Não foi possível verificar o formulário',
      message:
        'O formulário não foi enviado desta página ou do navegador que iniciou o acesso. Volte ao aplicativo e comece de novo.',
    },
    form_invalid: {
      heading: 'Formulário inválido',
      message: 'Não foi possível ler o formulário. Volte ao aplicativo e comece de novo.',
    },
    form_media_type: {
      heading: 'Formulário inválido',
      message: 'O formulário deve ser enviado como application/x-www-form-urlencoded.',
    },
    form_too_large: { heading: 'Formulário grande demais', message: 'O formulário excede o tamanho permitido.' },
    unavailable: {
      heading: 'Serviço indisponível',
      message: 'Não podemos atender agora. Tente novamente em alguns minutos.',
    },
  },
  roles: {
    org_admin: 'administração',
    staff: 'equipe',
    finance: 'finanças',
    group_leader: 'líder de grupo',
    volunteer: 'voluntariado',
  },
  scopes: {
    'read:members': { title: 'Ver as pessoas', detail: 'Nomes, contatos, famílias, etiquetas e visitantes' },
    'write:members': { title: 'Adicionar e editar pessoas', detail: 'Pessoas, famílias, etiquetas e visitantes' },
    'read:donations': {
      title: 'Ver as ofertas e doações',
      detail: 'Doações, fundos, lotes, promessas e doações recorrentes',
    },
    'write:donations': {
      title: 'Registrar e editar doações',
      detail: 'Doações, fundos, lotes, promessas e doações recorrentes',
    },
    'read:attendance': { title: 'Ver a frequência', detail: 'Presença nos cultos e check-ins' },
    'write:attendance': { title: 'Registrar frequência', detail: 'Marcar presença e fazer check-in e check-out' },
    'read:events': { title: 'Ver os eventos', detail: 'Eventos e inscrições' },
    'write:events': { title: 'Criar e editar eventos', detail: 'Eventos e inscrições' },
    'read:groups': { title: 'Ver os grupos', detail: 'Grupos e quem participa deles' },
    'write:groups': { title: 'Criar e editar grupos', detail: 'Grupos e quem participa deles' },
    'read:reports': { title: 'Ver os relatórios', detail: 'Relatórios e estatísticas da igreja' },
    'read:campuses': { title: 'Ver os campi', detail: 'Campi da igreja' },
    'write:campuses': { title: 'Criar e editar campi', detail: 'Campi da igreja' },
    'read:prayer_requests': { title: 'Ver os pedidos de oração', detail: 'Pedidos de oração e seu acompanhamento' },
    'write:prayer_requests': {
      title: 'Adicionar e editar pedidos de oração',
      detail: 'Pedidos de oração e seu acompanhamento',
    },
    'write:notifications': { title: 'Enviar mensagens às pessoas', detail: 'E-mails e notificações em nome da igreja' },
    'admin:*': {
      title: 'Controle total da conta',
      detail: 'Configurações, chaves de acesso, aplicativos e todos os dados da igreja',
    },
  },
};

export const OAUTH_PAGE_TEXTS: Record<Language, OAuthPageTexts> = { es, en, pt };
