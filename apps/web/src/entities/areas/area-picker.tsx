import { Col, Form, Row, Select, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { zCountryId, type TArea, type TProxyCategory } from '@proxy/contract';
import { zodRule } from '../../lib/form-rules';
import { getLanguage } from '../../lib/i18n';
import { useAreaCities } from './area-cities';
import { useAreaCountries, type TAreaOffer } from './area-countries';
import { useAreaStates } from './area-states';

type TAreaOption = { value: string; label: string; name: string; search: string; disabled: boolean };

/**
 * The label of an area in the list. With a product asked the answer says whether the area can be bought now: an
 * area that cannot is disabled with the reason (no free exit; or its upstream pools failing: temporarily
 * unavailable); one that can without a free exit to count (a pool serves it, or a dynamic proxy rotates among held
 * exits) says "available". Without, the exits' count as before.
 */
function labelOf(area: TArea, name: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (area.is_available === false) {
    return t(area.supply === 'exits' ? 'areas.optionOutOfStock' : 'areas.optionUnavailable', { name });
  }
  if (area.is_available && area.available === 0) return t('areas.optionAvailable', { name });
  return t('areas.option', { name, count: area.available });
}

/** Options of one level: "name (N available)" in the list, the name alone in the field; searchable by code and both names. */
function toOptions(
  areas: TArea[] | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
): TAreaOption[] {
  const lang = getLanguage();
  return (areas ?? []).map((area) => {
    const name = (lang === 'zh' ? area.name_zh : area.name_en) || area.name || area.id.toUpperCase();
    return {
      value: area.id,
      label: labelOf(area, name, t),
      name,
      search: `${area.id} ${area.name_zh} ${area.name_en}`.toLowerCase(),
      disabled: area.is_available === false,
    };
  });
}

function matches(input: string, option?: TAreaOption): boolean {
  return Boolean(option?.search.includes(input.trim().toLowerCase()));
}

/** One level of the picker: a searchable select of the level's areas that says when they could not be fetched. */
function AreaLevel(props: {
  name: 'country_id' | 'state_id' | 'city_id';
  label: string;
  areas: { data?: TArea[]; isFetching: boolean; isError: boolean };
  failedText: string;
  placeholder?: string;
  /** Must be chosen, by this rule. */
  requiredRule?: FormRule;
  disabled: boolean;
  onChange?: () => void;
}) {
  const { t } = useTranslation('common');
  const options = toOptions(props.areas.data, t);
  return (
    <Col xs={24} sm={8}>
      <Form.Item
        name={props.name}
        label={props.label}
        required={Boolean(props.requiredRule)}
        rules={props.requiredRule ? [props.requiredRule] : []}
      >
        <Select<string, TAreaOption>
          showSearch={{ filterOption: matches }}
          popupMatchSelectWidth={260}
          allowClear={!props.requiredRule}
          disabled={props.disabled}
          placeholder={props.placeholder}
          loading={props.areas.isFetching}
          options={options}
          // The field names the chosen area; the available count is for choosing.
          labelRender={({ value }) => options.find((option) => option.value === value)?.name ?? String(value ?? '')}
          notFoundContent={props.areas.isError ? props.failedText : undefined}
          onChange={props.onChange}
        />
      </Form.Item>
    </Col>
  );
}

/**
 * Country -> state -> city of a form (fields country_id, state_id, city_id),
 * from the area lists of a category (and of a product, when given); state and city narrow the country ("any"
 * when left empty) and changing a level clears the ones below. Used by the
 * purchase form (country required, spec section 5) and the endpoint generator.
 */
export function AreaPicker(props: {
  category: TProxyCategory;
  isCountryRequired?: boolean;
  disabled?: boolean;
  /** The product the areas are for (the purchase form): lists what it can be bought in, unavailable areas disabled. */
  offer?: TAreaOffer;
}) {
  const { category, isCountryRequired = false, disabled = false, offer } = props;
  const { t } = useTranslation('common');
  const form = Form.useFormInstance();
  const countryId = Form.useWatch<string | undefined>('country_id', form);
  const stateId = Form.useWatch<string | undefined>('state_id', form);
  const countries = useAreaCountries(category, { isEnabled: !disabled, offer });
  const states = useAreaStates(category, countryId, offer);
  const cities = useAreaCities(category, countryId, stateId, offer);

  return (
    <Row gutter={12}>
      <AreaLevel
        name="country_id"
        label={t('areas.country')}
        areas={countries}
        failedText={t('areas.fetchCountries')}
        placeholder={isCountryRequired ? t('areas.countryPlaceholder') : undefined}
        requiredRule={isCountryRequired ? zodRule(zCountryId) : undefined}
        disabled={disabled}
        onChange={() => form.setFieldsValue({ state_id: undefined, city_id: undefined })}
      />
      <AreaLevel
        name="state_id"
        label={t('areas.state')}
        areas={states}
        failedText={t('areas.fetchStates')}
        placeholder={t('areas.anyState')}
        disabled={disabled || !countryId}
        onChange={() => form.setFieldsValue({ city_id: undefined })}
      />
      <AreaLevel
        name="city_id"
        label={t('areas.city')}
        areas={cities}
        failedText={t('areas.fetchCities')}
        placeholder={t('areas.anyCity')}
        disabled={disabled || !stateId}
      />
    </Row>
  );
}
