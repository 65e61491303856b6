// User-facing strings of the Getting started dialog (docs/product.md, Shell §2).
export const onboardingStrings = {
  title: 'Getting started',
  intro: 'Four steps take your team from an empty instance to evaluated models.',
  cards: {
    sdk: {
      title: 'Set up SDK',
      text: 'Install the Python SDK from this instance and connect it with your API key.',
    },
    invite: {
      title: 'Invite users',
      text: 'Add your colleagues and send them a link to set their password.',
    },
    dataset: {
      title: 'Add dataset',
      text: 'Upload images or audio clips with their labels to start exploring.',
    },
    model: {
      title: 'Add model',
      text: 'Upload a model’s predictions to evaluate it and compare it with others.',
    },
  },
  noInvitePermission: 'You do not have permission to invite users',
  close: 'Close',
} as const;
